package dev.muster.adapter.grpc;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.PodGroupSpec;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@code disruptionMode} over gRPC in both Kubernetes forms: the same REST body read as proto3 JSON decodes to the
 * same record as over REST (string or struct, absent stays absent), and a binary client can say each form.
 */
class GrpcDisruptionModeTest {
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

    private static String body(String apiVersion, String mode) {
        return ("{'snapshot':{'nodes':[{'metadata':{'name':'n'}}],'podGroups':[{'apiVersion':'" + apiVersion
                + "','metadata':{'name':'g'},'spec':{'schedulingPolicy':{'gang':{'minCount':2}}"
                + (mode == null ? "" : ",'disruptionMode':" + mode) + "}}],"
                + "'workloads':[{'apiVersion':'" + apiVersion + "','metadata':{'name':'w'},'spec':{'podGroupTemplates':"
                + "[{'name':'t','schedulingPolicy':{'basic':{}}" + (mode == null ? "" : ",'disruptionMode':" + mode)
                + "}]}}]}}").replace('\'', '"');
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"scheduling.k8s.io/v1beta1|{'all':{}}", "scheduling.k8s.io/v1beta1|{'single':{}}",
            "scheduling.k8s.io/v1alpha3|{'all':{}}", "scheduling.k8s.io/v1beta1|{'all':{},'single':{}}",
            "scheduling.k8s.io/v1beta1|{}", "scheduling.k8s.io/v1beta1|{'all':null}",
            "scheduling.k8s.io/v1beta1|'PodGroup'", "scheduling.k8s.io/v1alpha2|'PodGroup'",
            "scheduling.k8s.io/v1alpha2|{'all':{}}", "scheduling.k8s.io/v1alpha2|null",
            "scheduling.k8s.io/v1beta1|null", "scheduling.k8s.io/v1alpha2|"})
    void bothFormsDecodeAsOverRest(String arg) throws Exception {
        String[] parts = arg.split("\\|", -1);
        String json = body(parts[0], parts[1].isEmpty() ? null : parts[1].replace('\'', '"'));
        RequestDocument viaGrpc = GrpcRequestMapper.toDocument(GrpcRequestMapperTest.parse(json));
        RequestDocument viaRest = codec.readJson(json.getBytes(StandardCharsets.UTF_8));
        assertThat(viaGrpc).isEqualTo(viaRest);
    }

    @Test
    void aV1beta1AllIsKeptAsTheStructForm() throws Exception {
        Kube.DisruptionMode m = GrpcRequestMapper.toDocument(GrpcRequestMapperTest.parse(
                body("scheduling.k8s.io/v1beta1", "{\"all\":{}}"))).snapshot().podGroups().get(0).spec().disruptionMode();
        assertThat(m.isStruct()).isTrue();
        assertThat(m.all()).isTrue();
        assertThat(m.single()).isFalse();
        assertThat(m.modeName()).isEqualTo("PodGroup");
    }

    @Test
    void aBinaryClientSaysEitherForm() throws Exception {
        DecideRequest.Builder b = GrpcRequestMapperTest.parse(body("scheduling.k8s.io/v1beta1", null)).toBuilder();
        PodGroupSpec.Builder spec = b.getSnapshotBuilder().getPodGroupsBuilder(0).getSpecBuilder();
        spec.setDisruptionModeValue(com.google.protobuf.Value.newBuilder().setStructValue(
                com.google.protobuf.Struct.newBuilder().putFields("all", com.google.protobuf.Value.newBuilder()
                        .setStructValue(com.google.protobuf.Struct.getDefaultInstance()).build())));
        Kube.DisruptionMode struct = GrpcRequestMapper.toDocument(b.build()).snapshot().podGroups().get(0).spec()
                .disruptionMode();
        assertThat(struct.all()).isTrue();

        spec.clearDisruptionModeValue().setDisruptionMode("PodGroup");
        Kube.DisruptionMode text = GrpcRequestMapper.toDocument(b.build()).snapshot().podGroups().get(0).spec()
                .disruptionMode();
        assertThat(text.isStruct()).isFalse();
        assertThat(text.text()).isEqualTo("PodGroup");
    }

    @Test
    void bothFieldsOrAnotherJsonTypeAreInvalidArguments() throws Exception {
        DecideRequest.Builder b = GrpcRequestMapperTest.parse(body("scheduling.k8s.io/v1beta1", "{\"all\":{}}"))
                .toBuilder();
        b.getSnapshotBuilder().getPodGroupsBuilder(0).getSpecBuilder().setDisruptionMode("PodGroup");
        StatusRuntimeException twice = catchThrowableOfType(StatusRuntimeException.class,
                () -> GrpcRequestMapper.toDocument(b.build()));
        assertThat(twice.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(twice.getStatus().getDescription()).contains("set twice");

        StatusRuntimeException number = catchThrowableOfType(StatusRuntimeException.class,
                () -> GrpcRequestMapper.toDocument(GrpcRequestMapperTest.parse(body("scheduling.k8s.io/v1beta1", "3"))));
        assertThat(number.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        StatusRuntimeException member = catchThrowableOfType(StatusRuntimeException.class,
                () -> GrpcRequestMapper.toDocument(GrpcRequestMapperTest.parse(
                        body("scheduling.k8s.io/v1beta1", "{\"all\":true}"))));
        assertThat(member.getStatus().getDescription()).contains("disruptionMode.all must be an object");
    }
}
