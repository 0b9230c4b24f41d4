package dev.muster.core.dra;

import dev.muster.core.model.ExtendedRequest;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The claim kube-scheduler makes for extended-resource requests that a DeviceClass backs. */
class ExtendedResourceClaimTest {
    private static final DeviceClass GPU = new DeviceClass("gpu.example.com", List.of(), List.of(), "example.com/gpu", 10);
    private static final DeviceClass NIC = new DeviceClass("nic.example.com", List.of(), List.of(), null, 10);
    private static final Function<String, DeviceClass> CLASSES = Map.of("example.com/gpu", GPU,
            DeviceClass.IMPLICIT_PREFIX + "nic.example.com", NIC)::get;

    private static ExtendedRequest main(int container, String resource, int keyIndex, long count) {
        return new ExtendedRequest(container, "c" + container, resource, keyIndex, count, false);
    }

    private static ExtendedRequest init(int container, String resource, int keyIndex, long count) {
        return new ExtendedRequest(container, "c" + container, resource, keyIndex, count, true);
    }

    private static List<org.assertj.core.groups.Tuple> requests(ResourceClaimSpec spec) {
        return spec.requests().stream().map(r -> tuple(r.name(), r.exactly().deviceClassName(), r.exactly().count()))
                .toList();
    }

    @Test
    @DisplayName("one ExactCount request per container and resource, named by container and sorted key index")
    void requestPerContainer() {
        ResourceClaimSpec spec = ExtendedResourceClaim.spec(List.of(main(0, "example.com/gpu", 1, 2),
                main(1, "example.com/gpu", 2, 1), main(1, DeviceClass.IMPLICIT_PREFIX + "nic.example.com", 1, 1)),
                CLASSES, r -> true);
        assertThat(requests(spec)).containsExactly(tuple("container-0-request-1", "gpu.example.com", 2L),
                tuple("container-1-request-1", "nic.example.com", 1L),
                tuple("container-1-request-2", "gpu.example.com", 1L));
    }

    @Test
    @DisplayName("an init container reuses the devices of the containers after it and asks only for the rest")
    void initReusesLaterContainers() {
        ResourceClaimSpec covered = ExtendedResourceClaim.spec(List.of(init(0, "example.com/gpu", 0, 2),
                main(1, "example.com/gpu", 0, 2)), CLASSES, r -> true);
        assertThat(requests(covered)).containsExactly(tuple("container-1-request-0", "gpu.example.com", 2L));

        ResourceClaimSpec more = ExtendedResourceClaim.spec(List.of(init(0, "example.com/gpu", 0, 5),
                main(1, "example.com/gpu", 0, 2)), CLASSES, r -> true);
        assertThat(requests(more)).containsExactly(tuple("container-0-request-0", "gpu.example.com", 3L),
                tuple("container-1-request-0", "gpu.example.com", 2L));
    }

    @Test
    @DisplayName("of several init containers only the largest extra request is kept; an earlier one wins a tie")
    void largestInitOnly() {
        ResourceClaimSpec spec = ExtendedResourceClaim.spec(List.of(init(0, "example.com/gpu", 0, 3),
                init(1, "example.com/gpu", 0, 4), init(2, "example.com/gpu", 0, 4), main(3, "example.com/gpu", 0, 1)),
                CLASSES, r -> true);
        assertThat(requests(spec)).containsExactly(tuple("container-1-request-0", "gpu.example.com", 3L),
                tuple("container-3-request-0", "gpu.example.com", 1L));
    }

    @Test
    @DisplayName("resources no class backs, or that the node serves itself, are left out; none left means no claim")
    void onlyWhatDevicesServe() {
        List<ExtendedRequest> requests = List.of(main(0, "example.com/gpu", 0, 1), main(0, "vendor.io/fpga", 1, 1));
        assertThat(requests(ExtendedResourceClaim.spec(requests, CLASSES, r -> true)))
                .containsExactly(tuple("container-0-request-0", "gpu.example.com", 1L));
        assertThat(ExtendedResourceClaim.spec(requests, CLASSES, r -> !r.equals("example.com/gpu"))).isNull();
    }

    @Test
    @DisplayName("every class serves its implicit name; of two classes naming one resource the later created serves it")
    void servingClass() {
        DeviceClass older = new DeviceClass("a-gpu", List.of(), List.of(), "example.com/gpu", 5);
        DeviceClass newer = new DeviceClass("b-gpu", List.of(), List.of(), "example.com/gpu", 9);
        DeviceClass sameTime = new DeviceClass("a-other", List.of(), List.of(), "example.com/gpu", 9);
        DraIndex index = DraIndex.build(List.of(older, newer, sameTime), List.of(), List.of());
        assertThat(index.extendedResourceClass("example.com/gpu").name()).isEqualTo("a-other");
        assertThat(index.extendedResourceClass(DeviceClass.IMPLICIT_PREFIX + "a-gpu").name()).isEqualTo("a-gpu");
        assertThat(index.extendedResourceClass("example.com/other")).isNull();
        assertThat(ExtendedResourceClaim.servedResources(List.of(older, NIC))).containsExactlyInAnyOrder(
                "example.com/gpu", DeviceClass.IMPLICIT_PREFIX + "a-gpu", DeviceClass.IMPLICIT_PREFIX + "nic.example.com");
    }
}
