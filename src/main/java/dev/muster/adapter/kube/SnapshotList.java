package dev.muster.adapter.kube;

import java.util.List;

/**
 * The lists of a request's snapshot, each with the Kubernetes kind of its objects and the apiVersions Muster reads
 * for it: what validation checks a list's items against, and what tells where the objects of a pasted kubectl
 * {@code List} belong.
 */
public enum SnapshotList {
    NODES("nodes", "Node", List.of("v1")),
    PODS("pods", "Pod", List.of("v1")),
    POD_GROUPS("podGroups", "PodGroup", GangShape.POD_GROUP_VERSIONS),
    WORKLOADS("workloads", "Workload", GangShape.WORKLOAD_VERSIONS),
    PRIORITY_CLASSES("priorityClasses", "PriorityClass", List.of("scheduling.k8s.io/v1")),
    POD_DISRUPTION_BUDGETS("podDisruptionBudgets", "PodDisruptionBudget", List.of("policy/v1")),
    DEVICE_CLASSES("deviceClasses", "DeviceClass", Dra.VERSIONS),
    RESOURCE_SLICES("resourceSlices", "ResourceSlice", Dra.VERSIONS),
    RESOURCE_CLAIMS("resourceClaims", "ResourceClaim", Dra.VERSIONS),
    RESOURCE_CLAIM_TEMPLATES("resourceClaimTemplates", "ResourceClaimTemplate", Dra.VERSIONS),
    JOBS("jobs", "Job", List.of("batch/v1")),
    COMPOSITE_POD_GROUPS("compositePodGroups", "CompositePodGroup", List.of(GangShape.K8S_V1ALPHA3.apiVersion())),
    HYPER_NODES("hyperNodes", "HyperNode", List.of("topology.volcano.sh/v1alpha1"));

    /** The {@code resource.k8s.io} versions whose objects name the fields Muster reads alike. */
    private static final class Dra {
        static final List<String> VERSIONS = List.of("resource.k8s.io/v1", "resource.k8s.io/v1beta2");
    }

    private final String field;
    private final String kind;
    private final List<String> apiVersions;

    SnapshotList(String field, String kind, List<String> apiVersions) {
        this.field = field;
        this.kind = kind;
        this.apiVersions = apiVersions;
    }

    /** The list's field under {@code snapshot} ({@code nodes}). */
    public String field() {
        return field;
    }

    /** The kind of its objects ({@code Node}); its typed list is {@link #listKind()}. */
    public String kind() {
        return kind;
    }

    /** The typed list kubectl and the API server print for it ({@code NodeList}). */
    public String listKind() {
        return kind + "List";
    }

    /** The apiVersions read for its objects, in the order messages list them. */
    public List<String> apiVersions() {
        return apiVersions;
    }

    /** The list under {@code snapshot} named {@code field}, or null. */
    public static SnapshotList ofField(String field) {
        for (SnapshotList l : values()) {
            if (l.field.equals(field)) {
                return l;
            }
        }
        return null;
    }

    /** The list whose objects, or whose typed list, have kind {@code kind}; null for a kind no list holds. */
    public static SnapshotList ofKind(String kind) {
        for (SnapshotList l : values()) {
            if (l.kind.equals(kind) || l.listKind().equals(kind)) {
                return l;
            }
        }
        return null;
    }
}
