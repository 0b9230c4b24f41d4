package dev.muster.adapter.grpc;

import com.google.rpc.BadRequest;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecideResponse;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import dev.muster.grpc.v1.Decision;
import grpc.health.v1.HealthGrpc;
import grpc.health.v1.HealthOuterClass;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.StreamObserver;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The gRPC surface end to end, over a real HTTP/2 connection to the test instance's HTTP port. */
@QuarkusTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DecisionGrpcServiceTest {
    private static final String TRAINING_JOB = "openapi/examples/training-job.json";

    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);
    private ManagedChannel channel;
    private DecisionServiceGrpc.DecisionServiceBlockingStub stub;

    @BeforeAll
    void connect() {
        channel = GrpcChannels.open();
        stub = DecisionServiceGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
    }

    @AfterAll
    void disconnect() throws InterruptedException {
        GrpcChannels.close(channel);
    }

    private DecisionResult engineDecides(String json) throws Exception {
        return engine.decide(KubeMapper.toDecisionRequest(codec.readJson(RandomSnapshots.bytes(json))));
    }

    /** The decisions as plain strings, from the engine's records: independent of GrpcResponseMapper. */
    private static List<String> summary(DecisionResult r) {
        List<String> out = new ArrayList<>();
        for (dev.muster.core.decision.Decision d : r.decisions()) {
            out.add(d.podGroup() + " " + d.outcome() + " placements=" + d.placements().stream()
                    .map(a -> a.pod() + "@" + a.node()).toList() + " victims=" + d.victims().stream()
                    .map(a -> a.pod() + "@" + a.node()).toList() + " nominations=" + d.nominations().stream()
                    .map(a -> a.pod() + "@" + a.node()).toList() + " unschedulable=" + d.unschedulablePods().stream()
                    .map(m -> m.pod() + ":" + m.message()).toList() + " message=" + (d.message() == null ? "" : d.message()));
        }
        r.pods().forEach(p -> out.add(p.pod() + " " + p.status() + " " + p.message()));
        return out;
    }

    private static List<String> summary(DecideResponse r) {
        List<String> out = new ArrayList<>();
        for (Decision d : r.getDecisionsList()) {
            out.add(d.getPodGroup().getNamespace() + "/" + d.getPodGroup().getName() + " " + d.getOutcome()
                    + " placements=" + d.getPlacementsList().stream().map(a -> ref(a.getPod()) + "@" + a.getNode()).toList()
                    + " victims=" + d.getVictimsList().stream().map(a -> ref(a.getPod()) + "@" + a.getNode()).toList()
                    + " nominations=" + d.getNominationsList().stream().map(a -> ref(a.getPod()) + "@" + a.getNode()).toList()
                    + " unschedulable=" + d.getUnschedulablePodsList().stream().map(m -> ref(m.getPod()) + ":" + m.getMessage()).toList()
                    + " message=" + d.getMessage());
        }
        r.getPodsList().forEach(p -> out.add(ref(p.getPod()) + " " + p.getStatus() + " " + p.getMessage()));
        return out;
    }

    private static String ref(dev.muster.grpc.v1.ObjectRef r) {
        return r.getNamespace() + "/" + r.getName();
    }

    @Test
    void theTrainingJobGangIsPlacedAsTheEngineDecides() throws Exception {
        String json = Files.readString(Path.of(TRAINING_JOB));
        DecideResponse grpc = stub.decide(GrpcRequestMapperTest.parse(json));
        DecisionResult direct = engineDecides(json);

        assertThat(summary(grpc)).isEqualTo(summary(direct));
        assertThat(grpc).isEqualTo(GrpcResponseMapper.toResponse(direct));
        Decision d = grpc.getDecisions(0);
        assertThat(d.getPodGroup().getName()).isEqualTo("training-job-workers-pg");
        assertThat(d.getOutcome()).isEqualTo("Scheduled");
        assertThat(d.getPlacementsCount()).isGreaterThanOrEqualTo(4);
        assertThat(d.getPlacementsList()).allSatisfy(a -> assertThat(a.getNode()).startsWith("node-"));
    }

    @Test
    void randomClustersGetTheEnginesDecisions() throws Exception {
        Set<String> outcomes = new TreeSet<>();
        for (long seed = 1; seed <= 20; seed++) {
            String json = RandomSnapshots.small(seed);
            DecideResponse grpc = stub.decide(GrpcRequestMapperTest.parse(json));
            assertThat(summary(grpc)).as("seed %d", seed).isEqualTo(summary(engineDecides(json)));
            grpc.getDecisionsList().forEach(d -> outcomes.add(d.getOutcome()));
        }
        // the generator is varied enough that the comparison covers more than one kind of answer
        assertThat(outcomes).contains("Scheduled", "Unschedulable");
    }

    @Test
    void theSameRequestGivesTheSameBytes() throws Exception {
        DecideRequest req = GrpcRequestMapperTest.parse(RandomSnapshots.small(7));
        assertThat(stub.decide(req).toByteString()).isEqualTo(stub.decide(req).toByteString());
    }

    @Test
    void validateAcceptsAValidRequest() throws Exception {
        DecideRequest req = GrpcRequestMapperTest.parse(Files.readString(Path.of(TRAINING_JOB)));
        assertThat(stub.validate(req).getValid()).isTrue();
    }

    @Test
    void aRequestWithoutSnapshotIsAnInvalidArgumentNamingTheField() throws Exception {
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.decide(DecideRequest.getDefaultInstance()));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        List<BadRequest.FieldViolation> v = Violations.of(e);
        assertThat(v).extracting(BadRequest.FieldViolation::getField).containsExactly("snapshot");
        assertThat(v.get(0).getReason()).isEqualTo("FieldValueRequired");
        assertThat(v.get(0).getDescription()).startsWith("FieldValueRequired: ");

        StatusRuntimeException ev = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.validate(DecideRequest.getDefaultInstance()));
        assertThat(ev.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(Violations.fields(ev)).containsExactly("snapshot");
    }

    @Test
    void aQuantityThatDoesNotParseIsAnInvalidArgumentNotInternal() throws Exception {
        String json = "{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n\"},"
                + "\"status\":{\"allocatable\":{\"cpu\":\"lots\"}}}]}}";
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.decide(GrpcRequestMapperTest.parse(json)));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(e.getStatus().getDescription()).contains("lots");
        assertThat(Violations.fields(e)).containsExactly("snapshot.nodes[0].status.allocatable[cpu]");
        assertThat(Violations.of(e).get(0).getReason()).isEqualTo("FieldValueInvalid");
    }

    @Test
    void anEmptySchedulingGroupNamesTheMissingPodGroupName() throws Exception {
        String json = "{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n\"}}],"
                + "\"pods\":[{\"metadata\":{\"name\":\"p\"},\"spec\":{\"schedulingGroup\":{}}}]}}";
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.decide(GrpcRequestMapperTest.parse(json)));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        BadRequest.FieldViolation v = Violations.of(e).get(0);
        assertThat(v.getField()).isEqualTo("snapshot.pods[0].spec.schedulingGroup.podGroupName");
        assertThat(v.getReason()).isEqualTo("FieldValueRequired");
        assertThat(v.getDescription()).isEqualTo("FieldValueRequired: exactly one of podGroupName must be set");
    }

    @Test
    void everyCauseIsReportedAtOnce() throws Exception {
        String json = "{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n\"}},{\"metadata\":{\"name\":\"n\"}}],"
                + "\"podGroups\":[{\"metadata\":{\"name\":\"g\"},\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minCount\":-1}}}}]},"
                + "\"podGroups\":[\"no-slash\"]}";
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.validate(GrpcRequestMapperTest.parse(json)));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(Violations.fields(e)).containsExactlyInAnyOrder("podGroups[0]", "snapshot.nodes[1].metadata.name",
                "snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount");
    }

    @Test
    void reflectionListsTheDecisionService() throws Exception {
        CompletableFuture<List<String>> names = new CompletableFuture<>();
        StreamObserver<ServerReflectionRequest> requests = ServerReflectionGrpc.newStub(channel)
                .serverReflectionInfo(new StreamObserver<>() {
                    @Override
                    public void onNext(ServerReflectionResponse r) {
                        names.complete(r.getListServicesResponse().getServiceList().stream()
                                .map(ServiceResponse::getName).toList());
                    }

                    @Override
                    public void onError(Throwable t) {
                        names.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                        names.complete(List.of());
                    }
                });
        requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
        requests.onCompleted();
        assertThat(names.get(30, TimeUnit.SECONDS)).contains("muster.v1.DecisionService", "grpc.health.v1.Health");
    }

    @Test
    void theStandardHealthServiceAnswersServing() {
        HealthOuterClass.HealthCheckResponse r = HealthGrpc.newBlockingStub(channel)
                .withDeadlineAfter(30, TimeUnit.SECONDS)
                .check(HealthOuterClass.HealthCheckRequest.newBuilder().setService("").build());
        assertThat(r.getStatus()).isEqualTo(HealthOuterClass.HealthCheckResponse.ServingStatus.SERVING);
    }
}
