package dev.muster.adapter.kube;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The field names the decoders switch on, found by their bytes while {@link ByteTokens} scans them, so that a known
 * name costs no String and no canonicalizing table. Every field name a record decoder matches MUST be listed: the byte
 * path reports any other object field name as unknown, and the decoder skips it (FieldNamesTest checks the decoders'
 * case labels against this list). Map keys (labels, resource names) need not be here: a missing one is only slower.
 * Immutable, shared by all requests.
 */
final class FieldNames {
    private static final String[] ALL = {
            // envelope
            "snapshot", "podGroups", "options", "nodes", "pods", "workloads", "priorityClasses",
            "podDisruptionBudgets", "deviceClasses", "resourceSlices", "resourceClaims", "resourceClaimTemplates",
            "compositePodGroups", "parentCompositePodGroupName", "minGroupCount", "hyperNodes",
            // cluster-choice envelope
            "clusters", "workload",
            // Volcano PodGroup networkTopology and HyperNode (read by databind; listed so the byte path knows them)
            "networkTopology", "mode", "highestTierAllowed", "highestTierName", "tier", "tierName", "members",
            "selector", "exactMatch", "regexMatch", "labelMatch", "pattern",
            // Node, Pod, ObjectMeta
            "metadata", "spec", "status", "name", "namespace", "uid", "labels", "annotations",
            "creationTimestamp", "deletionTimestamp", "generation",
            "unschedulable", "taints", "key", "value", "effect", "allocatable", "capacity",
            "nodeName", "schedulerName", "priority", "priorityClassName", "preemptionPolicy", "nodeSelector",
            "affinity", "tolerations", "containers", "initContainers", "overhead", "resources",
            "topologySpreadConstraints", "schedulingGates", "schedulingGroup",
            "ports", "restartPolicy", "containerPort", "hostPort", "protocol", "hostIP", "requests", "limits",
            "operator", "tolerationSeconds", "nodeAffinity", "podAffinity", "podAntiAffinity",
            "requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution",
            "nodeSelectorTerms", "matchExpressions", "matchFields", "weight", "preference", "values",
            "podAffinityTerm", "labelSelector", "namespaces", "namespaceSelector", "topologyKey",
            "matchLabelKeys", "mismatchLabelKeys", "matchLabels", "phase", "nominatedNodeName", "podGroupName",
            "resourceClaimStatuses", "extendedResourceClaimStatus", "workloadRef", "podGroup", "podGroupReplicaKey", "jobs",
            "resourceClaimName", "resourceClaimTemplateName",
            // ResourceSlice and its devices
            "driver", "pool", "resourceSliceCount", "allNodes", "perDeviceNodeSelection", "devices",
            "sharedCounters", "attributes", "consumesCounters", "allowMultipleAllocations", "bindsToNode",
            "bindingConditions", "bindingFailureConditions", "int", "bool", "string", "version", "requestPolicy",
            "counterSet", "counters",
            // common fields skipped by name (kubectl output)
            "apiVersion", "kind", "items", "resourceVersion", "ownerReferences", "conditions", "addresses", "images",
            "nodeInfo", "image", "imagePullPolicy", "type", "lastTransitionTime", "lastHeartbeatTime",
            "podIP", "podIPs", "hostIPs", "startTime", "containerStatuses", "qosClass", "dnsPolicy",
            "serviceAccountName", "terminationGracePeriodSeconds", "securityContext", "volumes", "volumeMounts",
            "env", "args", "command", "podCIDR", "providerID", "managedFields",
            // well-known gang membership keys (labels and annotations of members)
            "scheduling.k8s.io/group-name", "scheduling.x-k8s.io/pod-group", "volcano.sh/task-spec",
            "volcano.sh/job-name", "batch.kubernetes.io/job-completion-index",
            // common map keys: resource names ("pods" is above) and well-known labels
            "cpu", "memory", "ephemeral-storage", "hugepages-1Gi", "hugepages-2Mi", "nvidia.com/gpu",
            "amd.com/gpu", "app", "pod-template-hash", "controller-revision-hash", "job-name", "controller-uid",
            "batch.kubernetes.io/job-name", "batch.kubernetes.io/controller-uid",
            "statefulset.kubernetes.io/pod-name", "app.kubernetes.io/name", "app.kubernetes.io/instance",
            "app.kubernetes.io/component", "app.kubernetes.io/part-of", "app.kubernetes.io/managed-by",
            "kubernetes.io/hostname", "kubernetes.io/os", "kubernetes.io/arch", "topology.kubernetes.io/zone",
            "topology.kubernetes.io/region", "node.kubernetes.io/instance-type", "beta.kubernetes.io/arch",
            "beta.kubernetes.io/os", "beta.kubernetes.io/instance-type",
            "failure-domain.beta.kubernetes.io/region", "failure-domain.beta.kubernetes.io/zone",
            "node-role.kubernetes.io/control-plane", "kubectl.kubernetes.io/last-applied-configuration"};
    private static final int MASK = 1023;
    private static final long[][] KEYS = new long[MASK + 1][];
    private static final String[] STRINGS = new String[MASK + 1];

    static {
        for (String s : ALL) {
            byte[] b = s.getBytes(StandardCharsets.US_ASCII);
            long[] k = Words.key(b, 0, b.length);
            int slot = Words.hash(b, 0, b.length) & MASK;
            while (KEYS[slot] != null) {
                if (Arrays.equals(KEYS[slot], k)) {
                    throw new IllegalStateException("field name listed twice: " + s);
                }
                slot = (slot + 1) & MASK;
            }
            KEYS[slot] = k;
            STRINGS[slot] = s.intern();
        }
    }

    private FieldNames() {
    }

    /** The known name with these bytes ({@code h}: their {@link Words#hash}), or null. */
    static String find(byte[] b, int from, int len, int h) {
        int slot = h & MASK;
        while (true) {
            long[] k = KEYS[slot];
            if (k == null) {
                return null;
            }
            if (Words.same(k, b, from, len)) {
                return STRINGS[slot];
            }
            slot = (slot + 1) & MASK;
        }
    }
}
