package dev.muster.adapter.grpc;

import com.google.protobuf.util.JsonFormat;
import dev.muster.adapter.choice.ChoiceSettings;
import dev.muster.adapter.choice.ClusterChooser;
import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.ClusterViewSource;
import dev.muster.adapter.clusterview.NamedClusterViews;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.compile.CompileAhead;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.EngineConfig;
import dev.muster.grpc.v1.ChooseClusterRequest;
import dev.muster.grpc.v1.ChooseClusterResponse;
import dev.muster.grpc.v1.Cluster;
import dev.muster.grpc.v1.Snapshot;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ChooseCluster} on watched clusters, without a transport: a watched cluster answers as the same cluster sent
 * inline; one not synced yet answers UNAVAILABLE naming it and what it waits for (REST's 503); a workload object a
 * watched cluster already has answers INVALID_ARGUMENT on the object's path (REST's 422); a passed deadline or a
 * cancelled call stops the call as {@code Decide} is stopped.
 */
class ChooseClusterServiceTest {
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    private static final class Recorder implements StreamObserver<ChooseClusterResponse> {
        ChooseClusterResponse value;
        Throwable error;
        boolean completed;

        @Override
        public void onNext(ChooseClusterResponse v) {
            value = v;
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

    /** The REST example as the gRPC request. */
    private static ChooseClusterRequest example() throws Exception {
        return GrpcChooseClusterTest.parse(Files.readString(GrpcChooseClusterTest.EXAMPLE));
    }

    private static ClusterViewSource source(WatchedClusterVersion view, List<String> notSynced) {
        return new ClusterViewSource() {
            @Override
            public WatchedClusterVersion current() {
                return view;
            }

            @Override
            public List<String> notSynced() {
                return notSynced;
            }
        };
    }

    private static WatchedClusterVersion view(Snapshot s) {
        RequestDocument.Snapshot doc = GrpcRequestMapper.snapshot(s);
        return WatchedClusterVersion.of(1, KubeMapper.toClusterState(doc), "test");
    }

    /** A service whose chooser watches {@code views} by name. */
    private DecisionGrpcService service(Map<String, ClusterViewSource> views) {
        DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);
        DecisionGrpcService service = new DecisionGrpcService(engine, new RequestValidator(ValidationLimits.DEFAULT),
                null, meters, CompileAhead.OFF);
        service.chooseWith(new ClusterChooser(engine, new NamedClusterViews(views), Runnable::run, 1, 100),
                new ChoiceSettings(8));
        return service;
    }

    private Recorder call(DecisionGrpcService service, ChooseClusterRequest request, Context.CancellableContext ctx) {
        Recorder out = new Recorder();
        try {
            ctx.run(() -> service.chooseCluster(request, out));
        } finally {
            ctx.cancel(null);
        }
        return out;
    }

    private Recorder call(DecisionGrpcService service, ChooseClusterRequest request) {
        return call(service, request, Context.current().withDeadline(Deadline.after(1, TimeUnit.MINUTES), timer));
    }

    @Test
    void aWatchedClusterChoosesAsTheSameClusterSentInline() throws Exception {
        ChooseClusterRequest inline = example();
        Cluster west = inline.getClusters(0);
        DecisionGrpcService service = service(Map.of(west.getName(), source(view(west.getSnapshot()), List.of())));
        ChooseClusterRequest watched = inline.toBuilder().setClusters(0, west.toBuilder().clearSnapshot()).build();

        Recorder byName = call(service, watched);
        Recorder sent = call(service, inline);
        assertThat(byName.error).isNull();
        assertThat(byName.completed).isTrue();
        assertThat(byName.value.getChoicesCount()).isEqualTo(2);
        assertThat(JsonFormat.printer().print(byName.value)).isEqualTo(JsonFormat.printer().print(sent.value));
    }

    @Test
    void aWatchedClusterNotSyncedYetIsUnavailable() throws Exception {
        ChooseClusterRequest request = example().toBuilder()
                .setClusters(1, Cluster.newBuilder().setName("us-central-1")).build();
        DecisionGrpcService service = service(Map.of("us-central-1",
                source(WatchedClusterVersion.empty("test"), List.of("nodes", "pods"))));
        Recorder out = call(service, request);
        Status status = Status.fromThrowable(out.error);
        assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(status.getDescription()).contains("\"us-central-1\" (waiting for nodes, pods)")
                .contains("not synced yet");
        assertThat(out.value).isNull();
    }

    @Test
    void aWorkloadPodAWatchedClusterAlreadyHasIsInvalid() throws Exception {
        ChooseClusterRequest inline = example();
        Cluster west = inline.getClusters(0);
        Snapshot withPod = west.getSnapshot().toBuilder().addPods(inline.getWorkload().getPods(2)).build();
        DecisionGrpcService service = service(Map.of(west.getName(), source(view(withPod), List.of())));
        Recorder out = call(service, inline.toBuilder().setClusters(0, west.toBuilder().clearSnapshot()).build());
        assertThat(Status.fromThrowable(out.error).getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(Violations.of((io.grpc.StatusRuntimeException) out.error))
                .extracting(v -> v.getField() + " " + v.getReason())
                .containsExactly("workload.pods[2].metadata.name FieldValueDuplicate");
    }

    @Test
    void aPassedDeadlineAnswersDeadlineExceeded() throws Exception {
        Recorder out = call(service(Map.of()), example(),
                Context.current().withDeadline(Deadline.after(-1, TimeUnit.MILLISECONDS), timer));
        assertThat(Status.fromThrowable(out.error).getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
        assertThat(out.value).isNull();
        assertThat(meters.counter("muster.grpc.abandoned", "reason", "deadline").count()).isEqualTo(1.0);
    }

    @Test
    void aCancelledCallAnswersCancelled() throws Exception {
        Context.CancellableContext ctx = Context.current().withCancellation();
        ctx.cancel(null);
        Recorder out = call(service(Map.of()), example(), ctx);
        assertThat(Status.fromThrowable(out.error).getCode()).isEqualTo(Status.Code.CANCELLED);
    }
}
