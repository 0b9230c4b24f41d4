package dev.muster.adapter.rest;

import dev.muster.adapter.rest.error.KubeStatus;
import dev.muster.adapter.rest.error.StatusException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkus.runtime.configuration.MemorySize;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which thread answers: the event loop for a buffered body up to the inline limit, the worker pool for a larger one
 * and for a body still streaming in (its reads block).
 */
class RequestDispatcherTest {
    private static Vertx vertx;
    private static ExecutorService workers;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        workers = Executors.newSingleThreadExecutor(r -> new Thread(r, "test-worker"));
    }

    @AfterAll
    static void stop() throws Exception {
        workers.shutdownNow();
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    private static final BodyReader READER = new BodyReader(new MemorySize(BigInteger.valueOf(1 << 20)));

    private static RequestDispatcher dispatcher(long inlineMax) {
        return new RequestDispatcher(inlineMax, READER, workers);
    }

    private static InputStream buffered(int size) {
        return new ByteArrayInputStream(new byte[size]);
    }

    /** Not a ByteArrayInputStream: what Quarkus REST hands over for a body larger than its input buffer. */
    private static InputStream streaming(int size) {
        return new FilterInputStream(new ByteArrayInputStream(new byte[size])) {
        };
    }

    /** The thread the work ran on, and that it saw the whole body. */
    private static String threadName(byte[] body) {
        return Thread.currentThread().getName() + " " + body.length;
    }

    /** Runs {@code dispatcher.run(body, work)} on a Vert.x event loop; what the work answered, or its failure. */
    private static CompletableFuture<String> onEventLoop(RequestDispatcher dispatcher, InputStream body,
                                                         Function<byte[], String> work) {
        CompletableFuture<String> ran = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(v -> {
            Uni<String> uni;
            try {
                uni = dispatcher.run(body, work);
            } catch (RuntimeException e) {
                ran.completeExceptionally(e);
                return;
            }
            uni.subscribe().with(ran::complete, ran::completeExceptionally);
        });
        return ran;
    }

    @Test
    void aBufferedBodyUpToTheLimitIsAnsweredOnTheEventLoop() throws Exception {
        assertThat(onEventLoop(dispatcher(100), buffered(100), RequestDispatcherTest::threadName).get(30, TimeUnit.SECONDS))
                .startsWith("vert.x-eventloop-thread").endsWith(" 100");
    }

    @Test
    void aBufferedBodyOverTheLimitIsAnsweredOnAWorker() throws Exception {
        assertThat(onEventLoop(dispatcher(100), buffered(101), RequestDispatcherTest::threadName).get(30, TimeUnit.SECONDS))
                .isEqualTo("test-worker 101");
    }

    @Test
    void aStreamingBodyIsReadAndAnsweredOnAWorkerWhateverItsSize() throws Exception {
        assertThat(onEventLoop(dispatcher(100), streaming(10), RequestDispatcherTest::threadName).get(30, TimeUnit.SECONDS))
                .isEqualTo("test-worker 10");
    }

    @Test
    void aZeroLimitSendsEveryBodyToAWorker() throws Exception {
        assertThat(onEventLoop(dispatcher(0), buffered(1), RequestDispatcherTest::threadName).get(30, TimeUnit.SECONDS))
                .isEqualTo("test-worker 1");
    }

    @Test
    void offTheEventLoopEveryBodyIsAnsweredOnTheCallingThread() {
        // a body read by a @Blocking caller, or a test: no second hand-off
        RequestDispatcher d = dispatcher(0);
        assertThat(d.inline(streaming(1_000))).isTrue();
        String ran = d.run(streaming(1_000), RequestDispatcherTest::threadName).await().atMost(java.time.Duration.ofSeconds(30));
        assertThat(ran).isEqualTo(Thread.currentThread().getName() + " 1000");
    }

    @Test
    void aFailureOnAWorkerReachesTheCaller() throws Exception {
        StatusException thrown = new StatusException(KubeStatus.failure(422, "Invalid", "no", null));
        CompletableFuture<String> ran = onEventLoop(dispatcher(0), buffered(1), b -> {
            throw thrown;
        });
        assertThat(ran).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause().isSameAs(thrown);
    }

    @Test
    void aBodyOverTheBodyLimitIsATooLargeStatusOnAWorkerToo() throws Exception {
        RequestDispatcher d = new RequestDispatcher(0, new BodyReader(new MemorySize(BigInteger.valueOf(10))), workers);
        CompletableFuture<String> ran = onEventLoop(d, streaming(11), RequestDispatcherTest::threadName);
        assertThat(ran).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause().isInstanceOf(StatusException.class)
                .satisfies(e -> assertThat(((StatusException) e).status().code()).isEqualTo(413));
    }
}
