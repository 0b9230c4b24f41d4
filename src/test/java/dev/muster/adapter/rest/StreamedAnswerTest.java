package dev.muster.adapter.rest;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.PodStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StreamedAnswer} gives {@link DecisionResponseWriter#write}'s bytes whoever writes them: the helper while the
 * decisions come, the request thread when there are few or no helper is free, a helper that starts late; and a
 * cancelled answer lets its helper go. The decisions are hand-built ones reaching every field ({@link RandomResults}).
 */
class StreamedAnswerTest {
    private final ExecutorService pool = Executors.newSingleThreadExecutor();
    private final AtomicInteger asked = new AtomicInteger();
    private final AtomicInteger ran = new AtomicInteger();

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("the helper returned").isTrue();
    }

    /** A result of at least {@code n} decisions, gathered from hand-built results; the pods of the first. */
    private static DecisionResult result(int n) {
        List<Decision> decisions = new ArrayList<>();
        List<PodStatus> pods = null;
        for (long seed = 1; decisions.size() < n; seed++) {
            DecisionResult r = RandomResults.result(seed);
            decisions.addAll(r.decisions());
            pods = pods == null || pods.isEmpty() ? r.pods() : pods;
        }
        return new DecisionResult(decisions.subList(0, n), pods);
    }

    /** Helpers that are free from the {@code freeFrom}-th question on (1: at once; 0: never). */
    private Predicate<Runnable> helpers(int freeFrom) {
        return task -> {
            int question = asked.incrementAndGet();
            if (freeFrom == 0 || question < freeFrom) {
                return false;
            }
            ran.incrementAndGet();
            pool.execute(task);
            return true;
        };
    }

    private static byte[] streamed(StreamedAnswer answer, DecisionResult result) throws IOException {
        for (Decision d : result.decisions()) {
            answer.accept(d);
        }
        return answer.finish(result).getBytes();
    }

    @Test
    @DisplayName("many decisions: a helper writes them as they come, the bytes are the writer's")
    void helperWrites() throws IOException {
        DecisionResult result = result(3 * StreamedAnswer.START + 17);
        byte[] bytes = streamed(new StreamedAnswer(helpers(1)), result);
        assertThat(ran.get()).as("a helper took over").isEqualTo(1);
        assertThat(bytes).isEqualTo(DecisionResponseWriter.write(result));
    }

    @Test
    @DisplayName("fewer decisions than a helper is asked for: written by the request thread, no helper asked")
    void fewDecisions() throws IOException {
        DecisionResult result = result(StreamedAnswer.START - 1);
        byte[] bytes = streamed(new StreamedAnswer(helpers(1)), result);
        assertThat(asked.get()).isZero();
        assertThat(bytes).isEqualTo(DecisionResponseWriter.write(result));
    }

    @Test
    @DisplayName("no helper free: written by the request thread, the helper asked once per batch of decisions")
    void noHelper() throws IOException {
        DecisionResult result = result(3 * StreamedAnswer.START);
        byte[] bytes = streamed(new StreamedAnswer(helpers(0)), result);
        assertThat(asked.get()).isEqualTo(3);
        assertThat(ran.get()).isZero();
        assertThat(bytes).isEqualTo(DecisionResponseWriter.write(result));
    }

    @Test
    @DisplayName("a helper free only at the third question takes over the decisions made before it")
    void lateHelper() throws IOException {
        DecisionResult result = result(4 * StreamedAnswer.START + 5);
        byte[] bytes = streamed(new StreamedAnswer(helpers(3)), result);
        assertThat(ran.get()).isEqualTo(1);
        assertThat(bytes).isEqualTo(DecisionResponseWriter.write(result));
    }

    @Test
    @DisplayName("no decision at all, and no pod: the writer's empty answer")
    void empty() throws IOException {
        DecisionResult result = new DecisionResult(List.of(), List.of());
        assertThat(streamed(new StreamedAnswer(helpers(1)), result))
                .isEqualTo("{\"decisions\":[],\"pods\":[]}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("cancelled while the helper waits for more: the helper stops (checked when the pool shuts down)")
    void cancelled() {
        DecisionResult result = result(2 * StreamedAnswer.START);
        StreamedAnswer answer = new StreamedAnswer(helpers(1));
        for (Decision d : result.decisions()) {
            answer.accept(d);
        }
        answer.cancel();
        assertThat(ran.get()).isEqualTo(1);
        // stop() waits for the helper's task to return; shutdownNow's interrupt alone does not end the wait loop
    }
}
