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
 * tolerations, owner references and status a real cluster's objects carry. The DRA objects are
 * {@link FamilyDraObjects}'.
 */
final class FamilyObjects {
    private static final JsonFactory FACTORY = new JsonFactory();
    static final Instant EPOCH = Instant.parse("2026-04-20T08:00:00Z");
    static final String NS = "training";
    static final String FABRIC = "fabric.example.com";
    static final String MIG = "mig.example.com";
    static final String POD_CLAIM_NAME = "resource.kubernetes.io/pod-claim-name";
    private static final String RACK = ShapeFamily.RACK;

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
        FamilyDraObjects dra = new FamilyDraObjects(l, g, held, this::holderUid);
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
        dra.deviceClass(ShapeFamily.DRIVER, "device.driver == 'gpu.example.com' && "
                + "device.attributes['gpu.example.com'].type == 'gpu'");
        if (shape == Shape.PARTITIONS) {
            dra.deviceClass(MIG, "device.driver == 'gpu.example.com' && device.attributes['gpu.example.com'].type == 'mig'");
        }
        if (shape == Shape.SHARED_CLAIM) {
            dra.deviceClass(FABRIC, "device.driver == 'fabric.example.com'");
        }
        g.writeEndArray();
        g.writeArrayFieldStart("resourceSlices");
        for (NodeData n : l.nodes) {
            if (l.racks.get(n.rack).mig) {
                dra.counterSlice(n);
            }
            dra.gpuSlice(n);
        }
        if (shape == Shape.SHARED_CLAIM) {
            for (Rack r : l.racks) {
                dra.fabricSlice(r);
            }
        }
        g.writeEndArray();
        g.writeArrayFieldStart("resourceClaims");
        for (Bound b : l.holders) {
            dra.heldClaim(b);
        }
        for (Pending p : pending) {
            if (p.claim != null) {
                dra.claim(p.claim, p.name, p.uid, "v1", "Pod", entry(), template());
            }
        }
        for (int gi = 0; gi < l.gangs(); gi++) {
            if (groupClaims.get(gi) != null) {
                dra.claim(groupClaims.get(gi), jobs.get(gi), groupUids.get(gi), "scheduling.k8s.io/v1alpha2",
                        "PodGroup", "fabric", "fabric-channel");
            }
        }
        g.writeEndArray();
        g.writeArrayFieldStart("resourceClaimTemplates");
        dra.claimTemplate(NS, template());
        if (shape == Shape.SHARED_CLAIM) {
            dra.claimTemplate(NS, "fabric-channel");
        }
        if (shape == Shape.HELD) {
            for (int k : new int[]{1, 2, 4, 8}) {
                dra.claimTemplate("inference", "gpus-" + k);
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
        ownerReferences(g, p.gang >= 0 ? "batch/v1" : "apps/v1", p.gang >= 0 ? "Job" : "ReplicaSet", owner,
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
        ownerReferences(g, ownerApi, ownerKind, owner, "00000000-0000-4000-8000-" + String.format("%012x",
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

    static void ownerReferences(JsonGenerator g, String apiVersion, String kind, String name, String uid)
            throws IOException {
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
}
