package dev.muster.adapter.compile;

import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.adapter.kube.RequestDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Who compiles a request, when, and what the caller sees of it. */
class CompileAheadTest {
    private final List<CompileAhead> opened = new ArrayList<>();

    @AfterEach
    void close() {
        opened.forEach(CompileAhead::close);
    }

    private CompileAhead ahead(int threads, int threshold) {
        CompileAhead a = new CompileAhead(threads, threshold, ValidationLimits.DEFAULT);
        opened.add(a);
        return a;
    }

    /** A document of {@code nodes} nodes and no pods: only its size matters here. */
    private static RequestDocument doc(int nodes) {
        return new RequestDocument(new RequestDocument.Snapshot(Collections.nCopies(nodes, null), null, null, null,
                null, null, null, null, null, null, null, null, null), null, null);
    }

    @Test
    void aLargeRequestIsCompiledByAHelperAndASmallOneByTheCaller() throws Exception {
        CompileAhead ahead = ahead(1, 10);
        AtomicReference<String> large = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        CompileAhead.Task task = ahead.start(doc(10), () -> {
            large.set(Thread.currentThread().getName());
            ran.countDown();
            return null;
        });
        assertThat(ran.await(30, TimeUnit.SECONDS)).as("the helper ran it before join").isTrue();
        task.join();
        assertThat(large.get()).startsWith("muster-compile-");

        AtomicReference<String> small = new AtomicReference<>();
        ahead.start(doc(9), () -> {
            small.set(Thread.currentThread().getName());
            return null;
        }).join();
        assertThat(small.get()).isEqualTo(Thread.currentThread().getName());
    }

    @Test
    void aRequestOverTheValidatorsListLimitsIsNeverHandedToAHelper() throws Exception {
        CompileAhead ahead = new CompileAhead(1, 0, new ValidationLimits(5, 5, 5, 5, 5));
        opened.add(ahead);
        AtomicReference<String> over = new AtomicReference<>();
        ahead.start(doc(6), () -> {
            over.set(Thread.currentThread().getName());
            return null;
        }).join();
        assertThat(over.get()).as("six nodes, five allowed").isEqualTo(Thread.currentThread().getName());
        AtomicReference<String> within = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        CompileAhead.Task task = ahead.start(doc(5), () -> {
            within.set(Thread.currentThread().getName());
            ran.countDown();
            return null;
        });
        assertThat(ran.await(30, TimeUnit.SECONDS)).isTrue();
        task.join();
        assertThat(within.get()).startsWith("muster-compile-");
    }

    @Test
    void whenEveryHelperIsBusyTheCallerCompilesItself() throws Exception {
        CompileAhead ahead = ahead(1, 0);
        CountDownLatch hold = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        CompileAhead.Task first = ahead.start(doc(1), () -> {
            started.countDown();
            hold.await();
            return null;
        });
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        AtomicReference<String> second = new AtomicReference<>();
        ahead.start(doc(1), () -> {
            second.set(Thread.currentThread().getName());
            return null;
        }).join();
        assertThat(second.get()).isEqualTo(Thread.currentThread().getName());
        hold.countDown();
        first.join();
    }

    @Test
    void offCompilesEverythingOnTheCallersThreadAtJoin() {
        AtomicInteger runs = new AtomicInteger();
        AtomicReference<String> thread = new AtomicReference<>();
        CompileAhead.Task task = CompileAhead.OFF.start(doc(1_000_000), () -> {
            runs.incrementAndGet();
            thread.set(Thread.currentThread().getName());
            return null;
        });
        assertThat(runs).hasValue(0);
        task.join();
        task.join();
        assertThat(runs).as("once, however often joined").hasValue(1);
        assertThat(thread.get()).isEqualTo(Thread.currentThread().getName());
    }

    @Test
    void aCancelledCompilationThatHasNotStartedNeverRuns() {
        AtomicInteger runs = new AtomicInteger();
        CompileAhead.Task task = CompileAhead.OFF.start(doc(1), () -> {
            runs.incrementAndGet();
            return null;
        });
        task.cancel();
        assertThatThrownBy(task::join).isInstanceOf(IllegalStateException.class).hasMessageContaining("cancelled");
        assertThat(runs).hasValue(0);
    }

    @Test
    void whatTheCompilationThrowsReachesTheCallerAsItIs() {
        IllegalArgumentException thrown = new IllegalArgumentException("not a quantity: abc");
        for (CompileAhead ahead : List.of(ahead(1, 0), CompileAhead.OFF)) {
            CompileAhead.Task task = ahead.start(doc(1), () -> {
                throw thrown;
            });
            assertThatThrownBy(task::join).isSameAs(thrown);
        }
    }

    @Test
    void theCallerRunsTheStagesTheHelperHasNotReachedAndEachStageRunsOnce() throws Exception {
        CompileAhead ahead = ahead(1, 0);
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Map<String, String> ranOn = new ConcurrentHashMap<>();
        AtomicInteger runs = new AtomicInteger();
        CompileAhead.Stages stages = new CompileAhead.Stages();
        CompileAhead.Stage<Integer> slow = stages.add(() -> {
            runs.incrementAndGet();
            ranOn.put("slow", Thread.currentThread().getName());
            first.countDown();
            release.await();
            return 40;
        });
        CompileAhead.Stage<Integer> other = stages.add(() -> {
            runs.incrementAndGet();
            ranOn.put("other", Thread.currentThread().getName());
            release.countDown(); // the caller got here while the helper still runs the first stage
            return 2;
        });
        stages.add(() -> {
            runs.incrementAndGet();
            return slow.get() + other.get() == 42 ? new CompileAhead.Compiled(null, null) : null;
        });
        CompileAhead.Task task = ahead.start(doc(1), stages);
        assertThat(first.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(task.join()).as("the last stage read both earlier ones").isNotNull();
        assertThat(ranOn.get("slow")).startsWith("muster-compile-");
        assertThat(ranOn.get("other")).isEqualTo(Thread.currentThread().getName());
        assertThat(runs).as("three stages, each once").hasValue(3);
    }

    @Test
    void limitsAreChecked() {
        assertThatThrownBy(() -> new CompileAhead(-1, 0, ValidationLimits.DEFAULT)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CompileAhead(1, -1, ValidationLimits.DEFAULT)).isInstanceOf(IllegalArgumentException.class);
        assertThat(CompileAhead.size(doc(7).snapshot())).isEqualTo(7);
    }
}
