package dev.muster.adapter.kube;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/**
 * The {@code resource.k8s.io} objects as the request carries them (v1, and the v1beta2 shapes, which name these
 * fields alike): lean records with the Kubernetes JSON names of the fields a decision reads; unknown fields are
 * ignored. {@link DraMapper} turns them into the core's DRA model.
 */
public final class KubeDra {
    private KubeDra() {
    }

    // ---------------------------------------------------------------- DeviceClass

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record DeviceClass(String apiVersion, String kind, Kube.ObjectMeta metadata, DeviceClassSpec spec)
            implements Kube.TypeMeta {
        public DeviceClass(Kube.ObjectMeta metadata, DeviceClassSpec spec) {
            this(null, null, metadata, spec);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record DeviceClassSpec(List<Selector> selectors, List<Config> config, String extendedResourceName) {
        public DeviceClassSpec(List<Selector> selectors, List<Config> config) {
            this(selectors, config, null);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DeviceSelector")
    public record Selector(CelSelector cel) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CelSelector(String expression) {
    }

    /** A class's or claim's config entry: {@code opaque} driver parameters (claim entries name their requests). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DeviceConfiguration")
    public record Config(List<String> requests, Opaque opaque) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "OpaqueDeviceConfigurationInput")
    public record Opaque(String driver, JsonNode parameters) {
    }

    // ---------------------------------------------------------------- ResourceSlice

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ResourceSlice(String apiVersion, String kind, Kube.ObjectMeta metadata, ResourceSliceSpec spec)
            implements Kube.TypeMeta {
        public ResourceSlice(Kube.ObjectMeta metadata, ResourceSliceSpec spec) {
            this(null, null, metadata, spec);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ResourceSliceSpec(String driver, Pool pool, String nodeName, Kube.NodeSelector nodeSelector,
                                    Boolean allNodes, Boolean perDeviceNodeSelection, List<Device> devices,
                                    List<CounterSet> sharedCounters) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "ResourcePool")
    public record Pool(String name, Long generation, Long resourceSliceCount) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CounterSet(String name, Map<String, Counter> counters) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Counter(Qty value) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Device(String name, Map<String, Attribute> attributes, Map<String, Capacity> capacity,
                         List<CounterConsumption> consumesCounters, List<Taint> taints,
                         Boolean allowMultipleAllocations, Boolean bindsToNode, List<String> bindingConditions,
                         List<String> bindingFailureConditions, String nodeName, Kube.NodeSelector nodeSelector,
                         Boolean allNodes) {
    }

    /** A device attribute: exactly one of {@code int}, {@code bool}, {@code string}, {@code version}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DeviceAttribute")
    public record Attribute(@JsonProperty("int") Long intValue, @JsonProperty("bool") Boolean boolValue,
                            @JsonProperty("string") String stringValue, @JsonProperty("version") String versionValue) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DeviceCapacity")
    public record Capacity(Qty value, RequestPolicy requestPolicy) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record RequestPolicy(@JsonProperty("default") Qty defaultValue, List<Qty> validValues,
                                ValidRange validRange) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ValidRange(Qty min, Qty max, Qty step) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CounterConsumption(String counterSet, Map<String, Counter> counters) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DeviceTaint")
    public record Taint(String key, String value, String effect) {
    }

    // ---------------------------------------------------------------- ResourceClaim, ResourceClaimTemplate

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ResourceClaim(String apiVersion, String kind, ClaimMeta metadata, ClaimSpec spec,
                                ClaimStatus status) implements Kube.TypeMeta {
        public ResourceClaim(ClaimMeta metadata, ClaimSpec spec, ClaimStatus status) {
            this(null, null, metadata, spec, status);
        }
    }

    /**
     * A ResourceClaim's metadata: the fields every object's metadata has ({@link Kube.ObjectMeta}) and its
     * {@code ownerReferences}, which tie the claim kube-scheduler makes for a pod's extended resources to that pod.
     * Only claims read owner references: the pods and nodes of a request skip theirs.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "ResourceClaimMetadata")
    public record ClaimMeta(String name, String namespace, String uid, Map<String, String> labels,
                            Map<String, String> annotations, String creationTimestamp, String deletionTimestamp,
                            Long generation, List<Kube.OwnerReference> ownerReferences) {
        /** The claim's metadata with these owner references. */
        public static ClaimMeta of(Kube.ObjectMeta m, List<Kube.OwnerReference> ownerReferences) {
            return m == null ? null : new ClaimMeta(m.name(), m.namespace(), m.uid(), m.labels(), m.annotations(),
                    m.creationTimestamp(), m.deletionTimestamp(), m.generation(), ownerReferences);
        }

        /** The fields every object's metadata has. */
        public Kube.ObjectMeta common() {
            return new Kube.ObjectMeta(name, namespace, uid, labels, annotations, creationTimestamp, deletionTimestamp,
                    generation);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ResourceClaimTemplate(String apiVersion, String kind, Kube.ObjectMeta metadata,
                                        TemplateSpec spec) implements Kube.TypeMeta {
        public ResourceClaimTemplate(Kube.ObjectMeta metadata, TemplateSpec spec) {
            this(null, null, metadata, spec);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TemplateSpec(ClaimSpec spec) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ClaimSpec(DeviceClaim devices) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record DeviceClaim(List<Request> requests, List<Constraint> constraints, List<Config> config) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DeviceRequest")
    public record Request(String name, ExactRequest exactly, List<SubRequest> firstAvailable) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ExactRequest(String deviceClassName, List<Selector> selectors, String allocationMode, Long count,
                               Boolean adminAccess, List<Toleration> tolerations, CapacityRequirements capacity) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record SubRequest(String name, String deviceClassName, List<Selector> selectors, String allocationMode,
                             Long count, List<Toleration> tolerations, CapacityRequirements capacity) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record CapacityRequirements(Map<String, Qty> requests) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "ResourceClaimDeviceToleration")
    public record Toleration(String key, String operator, String value, String effect, Long tolerationSeconds) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Constraint(List<String> requests, String matchAttribute, String distinctAttribute) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "ResourceClaimStatus")
    public record ClaimStatus(Allocation allocation, List<Consumer> reservedFor) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "AllocationResultInput")
    public record Allocation(DeviceAllocation devices, Kube.NodeSelector nodeSelector) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DeviceAllocationResultInput")
    public record DeviceAllocation(List<Result> results, List<AllocationConfig> config) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DeviceRequestAllocationResultInput")
    public record Result(String request, String driver, String pool, String device, Boolean adminAccess,
                         List<Toleration> tolerations, @JsonProperty("shareID") String shareID,
                         Map<String, Qty> consumedCapacity) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "DeviceAllocationConfigurationInput")
    public record AllocationConfig(String source, List<String> requests, Opaque opaque) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "ResourceClaimConsumerReference")
    public record Consumer(String apiGroup, String resource, String name, String uid) {
    }
}
