package dev.muster.adapter.grpc;

import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecideResponse;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service's own deadline handling, without a transport: a call whose gRPC Context deadline has passed stops
 * and answers DEADLINE_EXCEEDED itself (not only the client's local timer), and a cancelled call answers CANCELLED.
 */
class DecisionGrpcServiceDeadlineTest {
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final DecisionGrpcService service = new DecisionGrpcService(new DecisionEngine(EngineConfig.DEFAULT),
            new RequestValidator(ValidationLimits.DEFAULT), null, meters, CompileAhead.OFF);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    private static final class Recorder implements StreamObserver<DecideResponse> {
        final List<DecideResponse> values = new ArrayList<>();
        Throwable error;
        boolean completed;

        @Override
        public void onNext(DecideResponse v) {
            values.add(v);
        }

        @Override
        public void onError(Throwable t) {
            error = t;
        }

        @Override
        public void onCompleted() {
            completed = true;
        }
    }

    @Test
    void aPassedDeadlineAnswersDeadlineExceededWithoutDeciding() throws Exception {
        DecideRequest req = GrpcRequestMapperTest.parse(RandomSnapshots.small(3));
        Recorder out = new Recorder();
        Context.CancellableContext ctx = Context.current().withDeadline(Deadline.after(-1, TimeUnit.MILLISECONDS), timer);
        try {
            ctx.run(() -> service.decide(req, out));
        } finally {
            ctx.cancel(null);
            timer.shutdownNow();
        }
        assertThat(out.values).isEmpty();
        assertThat(out.completed).isFalse();
        assertThat(Status.fromThrowable(out.error).getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
        assertThat(meters.counter("muster.grpc.abandoned", "reason", "deadline").count()).isEqualTo(1.0);
    }

    @Test
    void aCancelledCallAnswersCancelled() throws Exception {
        DecideRequest req = GrpcRequestMapperTest.parse(RandomSnapshots.small(3));
        Recorder out = new Recorder();
        Context.CancellableContext ctx = Context.current().withCancellation();
        ctx.cancel(null);
        ctx.run(() -> service.decide(req, out));
        assertThat(Status.fromThrowable(out.error).getCode()).isEqualTo(Status.Code.CANCELLED);
        assertThat(meters.counter("muster.grpc.abandoned", "reason", "cancelled").count()).isEqualTo(1.0);
    }

    @Test
    void withTimeLeftTheCallIsAnswered() throws Exception {
        DecideRequest req = GrpcRequestMapperTest.parse(RandomSnapshots.small(3));
        Recorder out = new Recorder();
        Context.CancellableContext ctx = Context.current().withDeadline(Deadline.after(1, TimeUnit.MINUTES), timer);
        try {
            ctx.run(() -> service.decide(req, out));
        } finally {
            ctx.cancel(null);
            timer.shutdownNow();
        }
        assertThat(out.error).isNull();
        assertThat(out.completed).isTrue();
        assertThat(out.values).hasSize(1);
        assertThat(out.values.get(0).getDecisionsCount()).isPositive();
    }
}
