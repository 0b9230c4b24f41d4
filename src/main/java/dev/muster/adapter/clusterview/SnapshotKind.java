package dev.muster.adapter.clusterview;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeDra;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.ValidationLimits;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The kinds of object a snapshot holds, each with its list in {@link RequestDocument.Snapshot} ({@code nodes}), its
 * Kubernetes kind ({@code Node}, the kind of an item of a kubectl {@code List}) and the lean record it decodes to.
 * A snapshot file or directory is read kind by kind through this table.
 */
enum SnapshotKind {
    NODES("nodes", "Node", Kube.Node.class, o -> ((Kube.Node) o).metadata(), ValidationLimits::maxNodes),
    PODS("pods", "Pod", Kube.Pod.class, o -> ((Kube.Pod) o).metadata(), ValidationLimits::maxPods),
    POD_GROUPS("podGroups", "PodGroup", Kube.PodGroup.class, o -> ((Kube.PodGroup) o).metadata(),
            ValidationLimits::maxPodGroups),
    WORKLOADS("workloads", "Workload", Kube.Workload.class, o -> ((Kube.Workload) o).metadata(),
            ValidationLimits::maxObjects),
    PRIORITY_CLASSES("priorityClasses", "PriorityClass", Kube.PriorityClass.class,
            o -> ((Kube.PriorityClass) o).metadata(), ValidationLimits::maxObjects),
    PDBS("podDisruptionBudgets", "PodDisruptionBudget", Kube.PodDisruptionBudget.class,
            o -> ((Kube.PodDisruptionBudget) o).metadata(), ValidationLimits::maxObjects),
    DEVICE_CLASSES("deviceClasses", "DeviceClass", KubeDra.DeviceClass.class,
            o -> ((KubeDra.DeviceClass) o).metadata(), ValidationLimits::maxObjects),
    RESOURCE_SLICES("resourceSlices", "ResourceSlice", KubeDra.ResourceSlice.class,
            o -> ((KubeDra.ResourceSlice) o).metadata(), ValidationLimits::maxObjects),
    RESOURCE_CLAIMS("resourceClaims", "ResourceClaim", KubeDra.ResourceClaim.class,
            o -> ((KubeDra.ResourceClaim) o).metadata() == null ? null
                    : ((KubeDra.ResourceClaim) o).metadata().common(), ValidationLimits::maxObjects),
    RESOURCE_CLAIM_TEMPLATES("resourceClaimTemplates", "ResourceClaimTemplate", KubeDra.ResourceClaimTemplate.class,
            o -> ((KubeDra.ResourceClaimTemplate) o).metadata(), ValidationLimits::maxObjects),
    JOBS("jobs", "Job", Kube.Job.class, o -> ((Kube.Job) o).metadata(), ValidationLimits::maxObjects),
    COMPOSITE_POD_GROUPS("compositePodGroups", "CompositePodGroup", Kube.CompositePodGroup.class,
            o -> ((Kube.CompositePodGroup) o).metadata(), ValidationLimits::maxPodGroups),
    HYPER_NODES("hyperNodes", "HyperNode", Kube.HyperNode.class, o -> ((Kube.HyperNode) o).metadata(),
            ValidationLimits::maxHyperNodes);

    private static final Map<String, SnapshotKind> BY_KIND;
    private static final Map<Class<?>, SnapshotKind> BY_TYPE;

    static {
        Map<String, SnapshotKind> byKind = new java.util.HashMap<>();
        Map<Class<?>, SnapshotKind> byType = new java.util.HashMap<>();
        for (SnapshotKind k : values()) {
            byKind.put(k.kind, k);
            byType.put(k.type, k);
        }
        BY_KIND = Map.copyOf(byKind);
        BY_TYPE = Map.copyOf(byType);
    }

    /** The snapshot's list ({@code nodes}). */
    final String field;
    /** The Kubernetes kind of one object ({@code Node}); its typed list is {@code kind + "List"}. */
    final String kind;
    /** The lean record an object decodes to. */
    final Class<?> type;
    /**
     * Whether the record needs the object's {@code apiVersion} and {@code kind} to be read (PodGroup and Workload
     * shapes, Jobs, CompositePodGroups, HyperNodes). The others keep them only to tell a misplaced object in a
     * request's list; a kubectl list's item has already been sorted by its kind.
     */
    final boolean typeMeta;
    private final Function<Object, Kube.ObjectMeta> metadata;
    private final ToIntFunction<ValidationLimits> limit;

    SnapshotKind(String field, String kind, Class<?> type, Function<Object, Kube.ObjectMeta> metadata,
                 ToIntFunction<ValidationLimits> limit) {
        this.field = field;
        this.kind = kind;
        this.type = type;
        this.typeMeta = readsTypeMeta(type);
        this.metadata = metadata;
        this.limit = limit;
    }

    /** The kind an item of a kubectl {@code List} names, or null for a kind no snapshot holds. */
    static SnapshotKind ofKind(String kind) {
        return kind == null ? null : BY_KIND.get(kind);
    }

    static SnapshotKind ofType(Class<?> type) {
        return BY_TYPE.get(type);
    }

    /** The most objects of this kind a snapshot may hold under {@code limits} (the validator's limit for its list). */
    int limit(ValidationLimits limits) {
        return limit.applyAsInt(limits);
    }

    /** The property that sets {@link #limit} for the cluster view ({@code muster.cluster-view.max-pods}). */
    String limitProperty() {
        return "muster.cluster-view." + switch (this) {
            case NODES -> "max-nodes";
            case PODS -> "max-pods";
            case POD_GROUPS, COMPOSITE_POD_GROUPS -> "max-pod-groups";
            case HYPER_NODES -> "max-hyper-nodes";
            default -> "max-objects";
        };
    }

    /** This kind's list in a snapshot (null when absent). */
    List<?> of(RequestDocument.Snapshot s) {
        return switch (this) {
            case NODES -> s.nodes();
            case PODS -> s.pods();
            case POD_GROUPS -> s.podGroups();
            case WORKLOADS -> s.workloads();
            case PRIORITY_CLASSES -> s.priorityClasses();
            case PDBS -> s.podDisruptionBudgets();
            case DEVICE_CLASSES -> s.deviceClasses();
            case RESOURCE_SLICES -> s.resourceSlices();
            case RESOURCE_CLAIMS -> s.resourceClaims();
            case RESOURCE_CLAIM_TEMPLATES -> s.resourceClaimTemplates();
            case JOBS -> s.jobs();
            case COMPOSITE_POD_GROUPS -> s.compositePodGroups();
            case HYPER_NODES -> s.hyperNodes();
        };
    }

    /** A snapshot of these lists (indexed by ordinal; null = absent). */
    @SuppressWarnings("unchecked")
    static RequestDocument.Snapshot snapshot(List<?>[] l) {
        return new RequestDocument.Snapshot((List<Kube.Node>) l[0], (List<Kube.Pod>) l[1],
                (List<Kube.PodGroup>) l[2], (List<Kube.Workload>) l[3], (List<Kube.PriorityClass>) l[4],
                (List<Kube.PodDisruptionBudget>) l[5], (List<KubeDra.DeviceClass>) l[6],
                (List<KubeDra.ResourceSlice>) l[7], (List<KubeDra.ResourceClaim>) l[8],
                (List<KubeDra.ResourceClaimTemplate>) l[9], (List<Kube.Job>) l[10],
                (List<Kube.CompositePodGroup>) l[11], (List<Kube.HyperNode>) l[12]);
    }

    /**
     * The order of a view: by namespace (the API server's {@code default} when absent), then name, as the watch
     * source's store keeps objects. The same objects give the same view however they are spread over files.
     */
    Comparator<Object> order() {
        return Comparator.comparing((Object o) -> namespace(metadata.apply(o)), NULLS)
                .thenComparing(o -> name(metadata.apply(o)), NULLS);
    }

    private static final Comparator<String> NULLS = Comparator.nullsFirst(Comparator.naturalOrder());

    private static String namespace(Kube.ObjectMeta m) {
        return m == null ? null : m.namespaceOrDefault();
    }

    private static String name(Kube.ObjectMeta m) {
        return m == null ? null : m.name();
    }

    private static boolean readsTypeMeta(Class<?> type) {
        return type == Kube.PodGroup.class || type == Kube.Workload.class || type == Kube.Job.class
                || type == Kube.CompositePodGroup.class || type == Kube.HyperNode.class;
    }
}
