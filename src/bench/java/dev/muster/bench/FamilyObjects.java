package dev.muster.bench;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.muster.bench.ShapeFamily.Bound;
import dev.muster.bench.ShapeFamily.Layout;
import dev.muster.bench.ShapeFamily.NodeData;
import dev.muster.bench.ShapeFamily.Rack;
import dev.muster.bench.ShapeFamily.Shape;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a {@link ShapeFamily} layout as a /v1/decisions request: every object as {@code kubectl get -o json} prints
 * it (API defaults applied: {@code allocationMode: ExactCount}, {@code count: 1}), with the metadata, taints,
 * tolerations, owner references and status a real cluster's objects carry.
 */
final class FamilyObjects {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final Instant EPOCH = Instant.parse("2026-04-20T08:00:00Z");
    static final String NS = "training";
    static final String FABRIC = "fabric.example.com";
    static final String MIG = "mig.example.com";
    static final String POD_CLAIM_NAME = "resource.kubernetes.io/pod-claim-name";

    private final Layout l;
    private final Shape shape;
    private JsonGenerator g;
    /** The pending pods: namespace, name, uid, gang (-1: none), the claim names generated for them. */
    private final List<Pending> pending = new ArrayList<>();
    private final List<String> jobs = new ArrayList<>();
    private final List<String> groupUids = new ArrayList<>();
    private final List<String> groupClaims = new ArrayList<>();

    private record Pending(String name, String uid, int gang, int index, String claim) {
    }

    private FamilyObjects(Layout l) {
        this.l = l;
        this.shape = l.shape;
    }

    static ShapeFamily.Generated write(Layout l) {
        FamilyObjects w = new FamilyObjects(l);
        w.plan();
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 << 20);
        byte[] member = null;
        try {
            try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
                w.g = g;
                w.request();
            }
            if (!w.pending.isEmpty()) {
                ByteArrayOutputStream m = new ByteArrayOutputStream(4096);
                try (JsonGenerator g = FACTORY.createGenerator(m, JsonEncoding.UTF8)) {
                    w.g = g;
                    w.pendingPod(w.pending.get(0));
                }
                member = m.toByteArray();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ShapeFamily.Generated(shape(l), l.seed, l.scale, out.toByteArray(), l.nodes.length,
                l.pending(), l.expected(), member);
    }

    private static Shape shape(Layout l) {
        return l.shape;
    }

    /** Names and uids of the pending pods and of the claims generated for them, drawn before anything is written. */
    private void plan() {
        boolean generated = shape != Shape.SYNTHESIZED;
        for (int gi = 0; gi < l.gangs(); gi++) {
            String job = l.unique((shape == Shape.INTERCONNECT ? "moe-train-" : "llm-pretrain-") + l.word(5));
            jobs.add(job);
            groupUids.add(l.uid());
            groupClaims.add(shape == Shape.SHARED_CLAIM && generated ? l.claimName(NS, job, "fabric") : null);
            for (int i = 0; i < l.perGang(); i++) {
                String name = l.generateName("pod/" + NS, job + "-" + i + "-");
                pending.add(new Pending(name, l.uid(), gi, i, generated ? l.claimName(NS, name, entry()) : null));
            }
        }
        for (int i = 0; i < l.plainPods(); i++) {
            String name = l.generateName("pod/batch", "batch-infer-" + l.hex(10) + "-");
            pending.add(new Pending(name, l.uid(), -1, i, l.claimName("batch", name, entry())));
        }
    }

    /** The pod-level claim entry of a pending member. */
    private String entry() {
        return shape == Shape.INTERCONNECT ? "gpus" : "gpu";
    }

    private String template() {
        return switch (shape) {
            case MIXED_MODELS -> "one-gpu-80gi";
            case PARTITIONS -> "gpu-2g-20gb";
            case FIRST_AVAILABLE -> "gpu-prefer-h200";
            case INTERCONNECT -> "eight-gpus-nvlink";
            default -> "one-gpu";
        };
    }

    // ------------------------------------------------------------------------------------------ the request

    private void request() throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("snapshot");
        g.writeArrayFieldStart("nodes");
        for (NodeData n : l.nodes) {
            node(n);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("pods");
        for (int i = 0; i < l.nodes.length; i++) {
            daemonPods(i);
        }
        for (Bound b : l.bound) {
            boundPod(b);
        }
        for (Bound b : l.holders) {
            boundPod(b);
        }
        for (Pending p : pending) {
            pendingPod(p);
        }
        g.writeEndArray();
        if (l.gangs() > 0) {
            g.writeArrayFieldStart("podGroups");
            for (int gi = 0; gi < l.gangs(); gi++) {
                podGroup(gi);
            }
            g.writeEndArray();
        }
        g.writeArrayFieldStart("deviceClasses");
        deviceClass(ShapeFamily.DRIVER, "device.driver == 'gpu.example.com' && "
                + "device.attributes['gpu.example.com'].type == 'gpu'");
        if (shape == Shape.PARTITIONS) {
            deviceClass(MIG, "device.driver == 'gpu.example.com' && device.attributes['gpu.example.com'].type == 'mig'");
        }
        if (shape == Shape.SHARED_CLAIM) {
            deviceClass(FABRIC, "device.driver == 'fabric.example.com'");
        }
        g.writeEndArray();
        g.writeArrayFieldStart("resourceSlices");
        for (NodeData n : l.nodes) {
            if (l.racks.get(n.rack).mig) {
                counterSlice(n);
            }
            gpuSlice(n);
        }
        if (shape == Shape.SHARED_CLAIM) {
            for (Rack r : l.racks) {
                fabricSlice(r);
            }
        }
        g.writeEndArray();
        g.writeArrayFieldStart("resourceClaims");
        for (Bound b : l.holders) {
            heldClaim(b);
        }
        for (Pending p : pending) {
            if (p.claim != null) {
                claim(p.claim, p.name, p.uid, "v1", "Pod", entry(), template());
            }
        }
        for (int gi = 0; gi < l.gangs(); gi++) {
            if (groupClaims.get(gi) != null) {
                claim(groupClaims.get(gi), jobs.get(gi), groupUids.get(gi), "scheduling.k8s.io/v1alpha2",
                        "PodGroup", "fabric", "fabric-channel");
            }
        }
        g.writeEndArray();
        g.writeArrayFieldStart("resourceClaimTemplates");
        claimTemplate(NS, template());
        if (shape == Shape.SHARED_CLAIM) {
            claimTemplate(NS, "fabric-channel");
        }
        if (shape == Shape.HELD) {
            for (int k : new int[]{1, 2, 4, 8}) {
                claimTemplate("inference", "gpus-" + k);
            }
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("options");
        g.writeBooleanField("preemption", true);
        g.writeEndObject();
        g.writeEndObject();
    }

    // ------------------------------------------------------------------------------------------ nodes

    private void node(NodeData n) throws IOException {
        Rack r = l.racks.get(n.rack);
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Node");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", n.name);
        g.writeStringField("uid", l.uid());
        g.writeStringField("resourceVersion", Integer.toString(100_000 + l.rnd.nextInt(900_000)));
        g.writeStringField("creationTimestamp", EPOCH.minusSeconds(86_400L * 30).toString());
        g.writeObjectFieldStart("labels");
        g.writeStringField("cloud.google.com/gke-nodepool", "gpu-" + r.poolHash);
        g.writeStringField("kubernetes.io/arch", "amd64");
        g.writeStringField(RequestGenerator.HOSTNAME, n.name);
        g.writeStringField("kubernetes.io/os", "linux");
        g.writeStringField("node.kubernetes.io/instance-type", r.type.instanceType());
        g.writeStringField("nvidia.com/gpu.present", "true");
        g.writeStringField("nvidia.com/gpu.product", r.model.product());
        g.writeStringField(RACK, r.name);
        g.writeStringField("topology.kubernetes.io/region", "us-east5");
        g.writeStringField(RequestGenerator.ZONE, r.zone);
        g.writeEndObject();
        g.writeObjectFieldStart("annotations");
        g.writeStringField("node.alpha.kubernetes.io/ttl", "0");
        g.writeStringField("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("podCIDR", "10.128." + (n.ip.hashCode() & 0xff) + ".0/24");
        g.writeStringField("providerID", "gce://muster-bench/" + r.zone + "/" + n.name);
        g.writeArrayFieldStart("taints");
        g.writeStartObject();
        g.writeStringField("effect", "NoSchedule");
        g.writeStringField("key", "nvidia.com/gpu");
        g.writeStringField("value", "present");
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeArrayFieldStart("addresses");
        address("InternalIP", n.ip);
        address("Hostname", n.name);
        g.writeEndArray();
        resources("allocatable", n.cpuMilli + "m", n.memMi * 1024 + "Ki");
        resources("capacity", Long.toString(r.type.cpu()), (long) r.type.memoryGi() * 1024 * 1024 + "Ki");
        g.writeArrayFieldStart("conditions");
        condition("MemoryPressure", "False", "KubeletHasSufficientMemory");
        condition("DiskPressure", "False", "KubeletHasNoDiskPressure");
        condition("PIDPressure", "False", "KubeletHasSufficientPID");
        condition("Ready", "True", "KubeletReady");
        g.writeEndArray();
        g.writeObjectFieldStart("nodeInfo");
        g.writeStringField("architecture", "amd64");
        g.writeStringField("containerRuntimeVersion", "containerd://2.0.4");
        g.writeStringField("kernelVersion", "6.6.72+");
        g.writeStringField("kubeProxyVersion", "");
        g.writeStringField("kubeletVersion", "v1.36.0");
        g.writeStringField("operatingSystem", "linux");
        g.writeStringField("osImage", "Container-Optimized OS from Google");
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void address(String type, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("address", value);
        g.writeStringField("type", type);
        g.writeEndObject();
    }

    private void resources(String field, String cpu, String memory) throws IOException {
        g.writeObjectFieldStart(field);
        g.writeStringField("cpu", cpu);
        g.writeStringField("ephemeral-storage", "2855481560Ki");
        g.writeStringField("hugepages-1Gi", "0");
        g.writeStringField("hugepages-2Mi", "0");
        g.writeStringField("memory", memory);
        g.writeStringField("pods", "110");
        g.writeEndObject();
    }

    private void condition(String type, String status, String reason) throws IOException {
        g.writeStartObject();
        g.writeStringField("lastHeartbeatTime", EPOCH.minusSeconds(40).toString());
        g.writeStringField("lastTransitionTime", EPOCH.minusSeconds(86_400L * 30).toString());
        g.writeStringField("message", "kubelet is posting ready status");
        g.writeStringField("reason", reason);
        g.writeStringField("status", status);
        g.writeStringField("type", type);
        g.writeEndObject();
    }

    // ------------------------------------------------------------------------------------------ pods

    private void daemonPods(int i) throws IOException {
        NodeData n = l.nodes[i];
        pod("nvidia-dra-driver-gpu", l.generateName("pod/nvidia-dra-driver-gpu", "nvidia-dra-driver-gpu-kubelet-plugin-"),
                l.uid(),
                "nvidia-dra-driver-gpu-kubelet-plugin", "apps/v1", "DaemonSet", "nvidia-dra-driver-gpu-kubelet-plugin",
                n.name, "100m", "128Mi", null, null, true, -86_400L);
        pod("monitoring", l.generateName("pod/monitoring", "node-exporter-"), l.uid(), "node-exporter", "apps/v1", "DaemonSet",
                "node-exporter", n.name, "50m", "64Mi", null, null, true, -86_400L);
    }

    private void boundPod(Bound b) throws IOException {
        NodeData n = l.nodes[b.node()];
        String claim = null;
        if (b.gpus() != null) {
            claim = l.claimName(b.namespace(), b.name(), "gpus");
            held.add(claim);
        }
        pod(b.namespace(), b.name(), b.gpus() == null ? l.uid() : holderUid(b), b.app(), "apps/v1", "ReplicaSet",
                b.owner(), n.name, b.cpuMilli() + "m", b.memMi() + "Mi",
                b.gpus() == null ? null : "gpus-" + b.gpus().length, claim, b.gpus() != null, -3_600L);
    }

    private final List<String> held = new ArrayList<>();
    private final java.util.Map<Bound, String> holderUids = new java.util.IdentityHashMap<>();

    private String holderUid(Bound b) {
        return holderUids.computeIfAbsent(b, x -> l.uid());
    }

    private void pendingPod(Pending p) throws IOException {
        ShapeFamily.Member m = l.member();
        String owner = p.gang >= 0 ? jobs.get(p.gang) : p.name.substring(0, p.name.length() - 6);
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", p.name);
        g.writeStringField("namespace", p.gang >= 0 ? NS : "batch");
        g.writeStringField("uid", p.uid);
        g.writeStringField("creationTimestamp", EPOCH.plusSeconds(p.gang >= 0 ? 60L * p.gang : p.index / 50).toString());
        g.writeObjectFieldStart("labels");
        if (p.gang >= 0) {
            g.writeStringField("batch.kubernetes.io/job-completion-index", Integer.toString(p.index));
            g.writeStringField("batch.kubernetes.io/job-name", owner);
            g.writeStringField("job-name", owner);
        } else {
            g.writeStringField("app", "batch-infer");
        }
        g.writeEndObject();
        ownerReferences(p.gang >= 0 ? "batch/v1" : "apps/v1", p.gang >= 0 ? "Job" : "ReplicaSet", owner,
                p.gang >= 0 ? groupUids.get(p.gang) : "00000000-0000-4000-8000-00000000b001");
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        if (p.gang >= 0) {
            g.writeObjectFieldStart("schedulingGroup");
            g.writeStringField("podGroupName", owner);
            g.writeEndObject();
        }
        g.writeArrayFieldStart("resourceClaims");
        claimRef(entry(), template());
        if (shape == Shape.SHARED_CLAIM) {
            claimRef("fabric", "fabric-channel");
        }
        g.writeEndArray();
        g.writeArrayFieldStart("containers");
        g.writeStartObject();
        g.writeStringField("name", p.gang >= 0 ? "trainer" : "server");
        g.writeStringField("image", "nvcr.io/nvidia/pytorch:25.01-py3");
        g.writeObjectFieldStart("resources");
        g.writeArrayFieldStart("claims");
        g.writeStartObject();
        g.writeStringField("name", entry());
        g.writeEndObject();
        if (shape == Shape.SHARED_CLAIM) {
            g.writeStartObject();
            g.writeStringField("name", "fabric");
            g.writeEndObject();
        }
        g.writeEndArray();
        for (String f : new String[]{"limits", "requests"}) {
            g.writeObjectFieldStart(f);
            g.writeStringField("cpu", m.cpuMilli() / 1000 + "");
            g.writeStringField("memory", m.memMi() / 1024 + "Gi");
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndArray();
        podSpecTail(true);
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeStringField("phase", "Pending");
        g.writeStringField("qosClass", "Guaranteed");
        if (p.claim != null) {
            g.writeArrayFieldStart("resourceClaimStatuses");
            claimStatus(entry(), p.claim);
            if (p.gang >= 0 && groupClaims.get(p.gang) != null) {
                claimStatus("fabric", groupClaims.get(p.gang));
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    /** A bound (Running) pod; with {@code template} set it uses one template claim {@code claim} named "gpus". */
    private void pod(String ns, String name, String uid, String app, String ownerApi, String ownerKind, String owner,
                     String node, String cpu, String memory, String template, String claim,
                     boolean tolerateGpu, long createdOffset) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        g.writeStringField("uid", uid);
        g.writeStringField("creationTimestamp", EPOCH.plusSeconds(createdOffset).toString());
        g.writeObjectFieldStart("labels");
        g.writeStringField("app", app);
        if (ownerKind.equals("ReplicaSet")) {
            g.writeStringField("pod-template-hash", owner.substring(owner.length() - 10));
        } else {
            g.writeStringField("controller-revision-hash", "6d8f9c7b5");
            g.writeStringField("pod-template-generation", "3");
        }
        g.writeEndObject();
        ownerReferences(ownerApi, ownerKind, owner, "00000000-0000-4000-8000-" + String.format("%012x",
                owner.hashCode() & 0xffffffffL));
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("nodeName", node);
        if (template != null) {
            g.writeArrayFieldStart("resourceClaims");
            claimRef("gpus", template);
            g.writeEndArray();
        }
        g.writeArrayFieldStart("containers");
        g.writeStartObject();
        g.writeStringField("name", app.length() > 40 ? "main" : app);
        g.writeStringField("image", "registry.example.com/" + app + ":1.0");
        g.writeObjectFieldStart("resources");
        if (template != null) {
            g.writeArrayFieldStart("claims");
            g.writeStartObject();
            g.writeStringField("name", "gpus");
            g.writeEndObject();
            g.writeEndArray();
        }
        g.writeObjectFieldStart("requests");
        g.writeStringField("cpu", cpu);
        g.writeStringField("memory", memory);
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndArray();
        podSpecTail(tolerateGpu);
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeStringField("phase", "Running");
        g.writeStringField("qosClass", "Burstable");
        g.writeStringField("startTime", EPOCH.plusSeconds(createdOffset + 2).toString());
        if (claim != null) {
            g.writeArrayFieldStart("resourceClaimStatuses");
            claimStatus("gpus", claim);
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void podSpecTail(boolean tolerateGpu) throws IOException {
        g.writeStringField("dnsPolicy", "ClusterFirst");
        g.writeBooleanField("enableServiceLinks", true);
        g.writeStringField("preemptionPolicy", "PreemptLowerPriority");
        g.writeNumberField("priority", 0);
        g.writeStringField("restartPolicy", "Always");
        g.writeStringField("schedulerName", "default-scheduler");
        g.writeStringField("serviceAccountName", "default");
        g.writeNumberField("terminationGracePeriodSeconds", 30);
        g.writeArrayFieldStart("tolerations");
        if (tolerateGpu) {
            g.writeStartObject();
            g.writeStringField("effect", "NoSchedule");
            g.writeStringField("key", "nvidia.com/gpu");
            g.writeStringField("operator", "Exists");
            g.writeEndObject();
        }
        for (String key : new String[]{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"}) {
            g.writeStartObject();
            g.writeStringField("effect", "NoExecute");
            g.writeStringField("key", key);
            g.writeStringField("operator", "Exists");
            g.writeNumberField("tolerationSeconds", 300);
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private void ownerReferences(String apiVersion, String kind, String name, String uid) throws IOException {
        g.writeArrayFieldStart("ownerReferences");
        g.writeStartObject();
        g.writeStringField("apiVersion", apiVersion);
        g.writeBooleanField("blockOwnerDeletion", true);
        g.writeBooleanField("controller", true);
        g.writeStringField("kind", kind);
        g.writeStringField("name", name);
        g.writeStringField("uid", uid);
        g.writeEndObject();
        g.writeEndArray();
    }

    private void claimRef(String name, String template) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("resourceClaimTemplateName", template);
        g.writeEndObject();
    }

    private void claimStatus(String name, String claim) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("resourceClaimName", claim);
        g.writeEndObject();
    }

    // ------------------------------------------------------------------------------------------ PodGroups

    private void podGroup(int gi) throws IOException {
        String job = jobs.get(gi);
        g.writeStartObject();
        g.writeStringField("apiVersion", "scheduling.k8s.io/v1alpha2");
        g.writeStringField("kind", "PodGroup");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", job);
        g.writeStringField("namespace", NS);
        g.writeStringField("uid", groupUids.get(gi));
        g.writeNumberField("generation", 1);
        g.writeStringField("creationTimestamp", EPOCH.plusSeconds(60L * gi - 5).toString());
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        if (shape == Shape.SHARED_CLAIM) {
            g.writeArrayFieldStart("resourceClaims");
            claimRef("fabric", "fabric-channel");
            g.writeEndArray();
        }
        g.writeObjectFieldStart("schedulingPolicy");
        g.writeObjectFieldStart("gang");
        g.writeNumberField("minCount", l.perGang());
        g.writeEndObject();
        g.writeEndObject();
        if (l.topology()) {
            g.writeObjectFieldStart("schedulingConstraints");
            g.writeArrayFieldStart("topology");
            g.writeStartObject();
            g.writeStringField("key", RACK);
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndObject();
        if (groupClaims.get(gi) != null) {
            g.writeObjectFieldStart("status");
            g.writeArrayFieldStart("resourceClaimStatuses");
            claimStatus("fabric", groupClaims.get(gi));
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static final String RACK = ShapeFamily.RACK;

    // ------------------------------------------------------------------------------------------ DRA objects

    private void deviceClass(String name, String selector) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "DeviceClass");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("uid", l.uid());
        g.writeNumberField("generation", 1);
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeArrayFieldStart("selectors");
        cel(selector);
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void cel(String expression) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("cel");
        g.writeStringField("expression", expression);
        g.writeEndObject();
        g.writeEndObject();
    }

    private void sliceHead(String name, String driver, String pool, int count, String node) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "ResourceSlice");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("generateName", name.substring(0, name.length() - 5));
        g.writeStringField("uid", l.uid());
        g.writeStringField("creationTimestamp", EPOCH.minusSeconds(86_400L * 29).toString());
        if (node != null) {
            ownerReferences("v1", "Node", node, "00000000-0000-4000-8000-" + String.format("%012x",
                    node.hashCode() & 0xffffffffL));
        }
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("driver", driver);
        g.writeObjectFieldStart("pool");
        g.writeNumberField("generation", 1);
        g.writeStringField("name", pool);
        g.writeNumberField("resourceSliceCount", count);
        g.writeEndObject();
        if (node != null) {
            g.writeStringField("nodeName", node);
        }
    }

    private void counterSlice(NodeData n) throws IOException {
        sliceHead(l.generateName("resourceslice", n.name + "-" + ShapeFamily.DRIVER + "-"), ShapeFamily.DRIVER, n.name, 2, n.name);
        g.writeArrayFieldStart("sharedCounters");
        for (int d = 0; d < ShapeFamily.GPUS; d++) {
            g.writeStartObject();
            g.writeStringField("name", "gpu-" + d + "-counter-set");
            g.writeObjectFieldStart("counters");
            counter("compute", "7");
            counter("memory", "80Gi");
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void counter(String name, String value) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeStringField("value", value);
        g.writeEndObject();
    }

    /**
     * The 7 partitions of a GPU: profile, device-name part, compute and memory consumed. Partitions carry only the
     * attributes selectors read (type, profile, parent index): with the whole set a GPU driver publishes, the
     * 5,000-node request would pass the 128 MiB body limit.
     */
    private static final String[][] PARTITIONS = {
            {"1g.10gb", "1g10gb-0", "1", "10Gi"}, {"1g.10gb", "1g10gb-1", "1", "10Gi"},
            {"1g.10gb", "1g10gb-2", "1", "10Gi"}, {"1g.10gb", "1g10gb-3", "1", "10Gi"},
            {"2g.20gb", "2g20gb-0", "2", "20Gi"}, {"2g.20gb", "2g20gb-1", "2", "20Gi"},
            {"3g.40gb", "3g40gb-0", "3", "40Gi"}};

    private void gpuSlice(NodeData n) throws IOException {
        Rack r = l.racks.get(n.rack);
        boolean parts = r.mig;
        sliceHead(l.generateName("resourceslice", n.name + "-" + ShapeFamily.DRIVER + "-"), ShapeFamily.DRIVER, n.name, parts ? 2 : 1,
                n.name);
        g.writeArrayFieldStart("devices");
        for (int d = 0; d < ShapeFamily.GPUS; d++) {
            g.writeStartObject();
            g.writeStringField("name", "gpu-" + d);
            g.writeObjectFieldStart("attributes");
            str("architecture", r.model.architecture());
            str("brand", "Nvidia");
            version("cudaComputeCapability", r.model.computeCapability());
            version("cudaDriverVersion", "12.8.0");
            version("driverVersion", r.driverVersion);
            integer("index", d);
            str("interconnect", r.islands ? n.name + "-nvlink-" + d / 4 : n.name + "-nvswitch");
            integer("minor", d);
            integer("numa", d / 4);
            str("pcieBusID", String.format("0000:%02x:00.0", 0x18 + 0x20 * d));
            str("productName", r.model.product());
            str("resource.kubernetes.io/pcieRoot", String.format("pci0000:%02x", 0x10 * (d / 2)));
            str("type", "gpu");
            str("uuid", n.uuids[d]);
            g.writeEndObject();
            g.writeObjectFieldStart("capacity");
            counter("memory", r.model.memoryGi() + "Gi");
            g.writeEndObject();
            if (parts) {
                consumes(d, "7", r.model.memoryGi() + "Gi");
            }
            g.writeEndObject();
            if (parts) {
                for (String[] p : PARTITIONS) {
                    g.writeStartObject();
                    g.writeStringField("name", "gpu-" + d + "-mig-" + p[1]);
                    g.writeObjectFieldStart("attributes");
                    integer("parentIndex", d);
                    str("profile", p[0]);
                    str("type", "mig");
                    g.writeEndObject();
                    g.writeObjectFieldStart("capacity");
                    counter("memory", p[3]);
                    g.writeEndObject();
                    consumes(d, p[2], p[3]);
                    g.writeEndObject();
                }
            }
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void consumes(int gpu, String compute, String memory) throws IOException {
        g.writeArrayFieldStart("consumesCounters");
        g.writeStartObject();
        g.writeStringField("counterSet", "gpu-" + gpu + "-counter-set");
        g.writeObjectFieldStart("counters");
        counter("compute", compute);
        counter("memory", memory);
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndArray();
    }

    /** A rack's fabric channels: reachable from every node of the rack (a one-term node selector on its label). */
    private void fabricSlice(Rack r) throws IOException {
        sliceHead(l.generateName("resourceslice", r.name + "-" + FABRIC + "-"), FABRIC, r.name, 1, null);
        g.writeObjectFieldStart("nodeSelector");
        g.writeArrayFieldStart("nodeSelectorTerms");
        g.writeStartObject();
        g.writeArrayFieldStart("matchExpressions");
        g.writeStartObject();
        g.writeStringField("key", RACK);
        g.writeStringField("operator", "In");
        g.writeArrayFieldStart("values");
        g.writeString(r.name);
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeArrayFieldStart("devices");
        for (int c = 0; c < 8; c++) {
            g.writeStartObject();
            g.writeStringField("name", "channel-" + c);
            g.writeObjectFieldStart("attributes");
            str("domain", r.name);
            integer("id", c);
            str("type", "channel");
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void str(String name, String value) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeStringField("string", value);
        g.writeEndObject();
    }

    private void version(String name, String value) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeStringField("version", value);
        g.writeEndObject();
    }

    private void integer(String name, long value) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("int", value);
        g.writeEndObject();
    }

    // ------------------------------------------------------------------------------------------ claims

    private void claimTemplate(String ns, String name) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "ResourceClaimTemplate");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        g.writeStringField("uid", l.uid());
        g.writeStringField("creationTimestamp", EPOCH.minusSeconds(3_600).toString());
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeObjectFieldStart("spec");
        claimSpec(name);
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    /** The {@code devices} of a claim made from template {@code template}. */
    private void claimSpec(String template) throws IOException {
        g.writeObjectFieldStart("devices");
        g.writeArrayFieldStart("requests");
        switch (template) {
            case "one-gpu" -> exact("gpu", ShapeFamily.DRIVER, 1, memory("40Gi"));
            case "one-gpu-80gi" -> exact("gpu", ShapeFamily.DRIVER, 1, memory("80Gi"));
            case "gpu-2g-20gb" -> exact("gpu", MIG, 1, "device.attributes['gpu.example.com'].profile == '2g.20gb'");
            case "eight-gpus-nvlink" -> exact("gpus", ShapeFamily.DRIVER, 8, memory("40Gi"));
            case "fabric-channel" -> exact("channel", FABRIC, 1, null);
            case "gpu-prefer-h200" -> {
                g.writeStartObject();
                g.writeArrayFieldStart("firstAvailable");
                sub("h200", memory("141Gi"));
                sub("h100", memory("80Gi"));
                sub("any", memory("40Gi"));
                g.writeEndArray();
                g.writeStringField("name", "gpu");
                g.writeEndObject();
            }
            default -> {
                if (!template.startsWith("gpus-")) {
                    throw new IllegalArgumentException(template);
                }
                exact("gpus", ShapeFamily.DRIVER, Integer.parseInt(template.substring(5)), null);
            }
        }
        g.writeEndArray();
        if (template.equals("eight-gpus-nvlink")) {
            g.writeArrayFieldStart("constraints");
            g.writeStartObject();
            g.writeStringField("matchAttribute", "gpu.example.com/interconnect");
            g.writeArrayFieldStart("requests");
            g.writeString("gpus");
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static String memory(String atLeast) {
        return "device.capacity['gpu.example.com'].memory.compareTo(quantity('" + atLeast + "')) >= 0";
    }

    private void exact(String name, String deviceClass, int count, String selector) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("exactly");
        g.writeStringField("allocationMode", "ExactCount");
        g.writeNumberField("count", count);
        g.writeStringField("deviceClassName", deviceClass);
        if (selector != null) {
            g.writeArrayFieldStart("selectors");
            cel(selector);
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeStringField("name", name);
        g.writeEndObject();
    }

    private void sub(String name, String selector) throws IOException {
        g.writeStartObject();
        g.writeStringField("allocationMode", "ExactCount");
        g.writeNumberField("count", 1);
        g.writeStringField("deviceClassName", ShapeFamily.DRIVER);
        g.writeStringField("name", name);
        g.writeArrayFieldStart("selectors");
        cel(selector);
        g.writeEndArray();
        g.writeEndObject();
    }

    /** A claim the resourceclaim controller generated from {@code template} for its owner's entry, not allocated. */
    private void claim(String name, String owner, String ownerUid, String ownerApi, String ownerKind, String entry,
                       String template) throws IOException {
        claimHead(name, ownerKind.equals("Pod") && owner.startsWith("batch-") ? "batch" : NS, owner, ownerUid,
                ownerApi, ownerKind, entry, false);
        g.writeObjectFieldStart("spec");
        claimSpec(template);
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeEndObject();
        g.writeEndObject();
    }

    private void claimHead(String name, String ns, String owner, String ownerUid, String ownerApi, String ownerKind,
                           String entry, boolean allocated) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "ResourceClaim");
        g.writeObjectFieldStart("metadata");
        g.writeObjectFieldStart("annotations");
        g.writeStringField(POD_CLAIM_NAME, entry);
        g.writeEndObject();
        g.writeStringField("creationTimestamp", EPOCH.plusSeconds(allocated ? -3_599 : 1).toString());
        if (allocated) {
            g.writeArrayFieldStart("finalizers");
            g.writeString("resource.kubernetes.io/delete-protection");
            g.writeEndArray();
        }
        g.writeStringField("generateName", name.substring(0, name.length() - 5));
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        ownerReferences(ownerApi, ownerKind, owner, ownerUid);
        g.writeStringField("uid", l.uid());
        g.writeEndObject();
    }

    private int heldIndex;

    /** A bound holder's claim: allocated on its node (first the devices it holds), reserved for the pod. */
    private void heldClaim(Bound b) throws IOException {
        String name = held.get(heldIndex++);
        NodeData n = l.nodes[b.node()];
        claimHead(name, b.namespace(), b.name(), holderUid(b), "v1", "Pod", "gpus", true);
        g.writeObjectFieldStart("spec");
        claimSpec("gpus-" + b.gpus().length);
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeObjectFieldStart("allocation");
        g.writeStringField("allocationTimestamp", EPOCH.plusSeconds(-3_598).toString());
        g.writeObjectFieldStart("devices");
        g.writeArrayFieldStart("results");
        for (int d : b.gpus()) {
            g.writeStartObject();
            g.writeStringField("device", "gpu-" + d);
            g.writeStringField("driver", ShapeFamily.DRIVER);
            g.writeStringField("pool", n.name);
            g.writeStringField("request", "gpus");
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("nodeSelector");
        g.writeArrayFieldStart("nodeSelectorTerms");
        g.writeStartObject();
        g.writeArrayFieldStart("matchFields");
        g.writeStartObject();
        g.writeStringField("key", "metadata.name");
        g.writeStringField("operator", "In");
        g.writeArrayFieldStart("values");
        g.writeString(n.name);
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
        g.writeArrayFieldStart("reservedFor");
        g.writeStartObject();
        g.writeStringField("name", b.name());
        g.writeStringField("resource", "pods");
        g.writeStringField("uid", holderUid(b));
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }
}
