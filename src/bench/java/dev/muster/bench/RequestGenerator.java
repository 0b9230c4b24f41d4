package dev.muster.bench;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Deterministic generator of benchmark requests as JSON bytes (the bytes a client would POST to /v1/decisions).
 * Same shape and seed give the same bytes, so JMH forks, the end-to-end script and the profiler all see identical
 * input.
 *
 * <p>Shapes ({@link Shape}):
 * <ul>
 *   <li>{@code large}: 5,000 kubectl-like nodes and 50,000 bound, kubectl-like pods (several containers, labels,
 *       annotations, owner references, tolerations, affinity, volumes, status) plus one 1,000-pod homogeneous gang;</li>
 *   <li>{@code hetero}: the same cluster plus one heterogeneous 1,000-pod gang (10 roles with nodeSelectors or
 *       required node affinity, tolerations for tainted pools, required pod anti-affinity per role on hostname);</li>
 *   <li>{@code gang-1000x3}, {@code gang-10x5000}: scheduler_perf GangScheduling 5000Nodes_1000Gangs_3000Pods and
 *       5000Nodes_10Gangs_50000Pods_5000PerGroup (default node template, pause pods 100m/100Mi);</li>
 *   <li>{@code tas-750x4}: TopologyAwareScheduling 5000Nodes_750Gangs_3000Pods (racks of 40 nodes, 4 pods per gang,
 *       topology key topology.kubernetes.io/rack);</li>
 *   <li>{@code small}: 100 nodes, one gang of 8 (the wrk request).</li>
 * </ul>
 * The scheduler_perf shapes follow the parameters of kube-scheduler v1.36's PodGroup workloads
 * ({@code test/integration/scheduler_perf/podgroup}); the generator is this project's own code.
 */
public final class RequestGenerator {
    public static final long SEED = 20260422L;
    static final String RACK = "topology.kubernetes.io/rack";
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String HOSTNAME = "kubernetes.io/hostname";
    private static final Instant EPOCH = Instant.parse("2026-04-20T08:00:00Z");
    private static final JsonFactory FACTORY = new JsonFactory();

    /** A benchmark request shape; {@code pendingPods} is what one decision places (for pods/s). */
    public enum Shape {
        LARGE("large", 1_000), HETERO("hetero", 1_000), GANG_1000X3("gang-1000x3", 3_000),
        GANG_10X5000("gang-10x5000", 50_000), TAS_750X4("tas-750x4", 3_000), SMALL("small", 8);

        public final String id;
        public final int pendingPods;

        Shape(String id, int pendingPods) {
            this.id = id;
            this.pendingPods = pendingPods;
        }

        public static Shape of(String id) {
            for (Shape s : values()) {
                if (s.id.equals(id)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("unknown shape " + id + "; one of large, hetero, gang-1000x3, "
                    + "gang-10x5000, tas-750x4, small");
        }
    }

    private final SplittableRandom rnd;
    private final JsonGenerator g;

    private RequestGenerator(JsonGenerator g, long seed) {
        this.g = g;
        this.rnd = new SplittableRandom(seed);
    }

    public static byte[] generate(String shape) {
        return generate(Shape.of(shape), SEED);
    }

    public static byte[] generate(Shape shape, long seed) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(shape == Shape.LARGE || shape == Shape.HETERO
                ? 96 << 20 : 1 << 20);
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            new RequestGenerator(g, seed).write(shape);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** {@code RequestGenerator <outDir> [shape...]}: writes {@code <outDir>/<shape>.json} (all shapes by default). */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: RequestGenerator <outDir> [shape...]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        List<Shape> shapes = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            shapes.add(Shape.of(args[i]));
        }
        if (shapes.isEmpty()) {
            shapes.addAll(List.of(Shape.values()));
        }
        for (Shape s : shapes) {
            long t0 = System.nanoTime();
            byte[] bytes = generate(s, SEED);
            Path f = dir.resolve(s.id + ".json");
            Files.write(f, bytes);
            System.out.printf(Locale.ROOT, "%-14s %,12d bytes  %,6d pending pods  %s  (%d ms)%n", s.id, bytes.length,
                    s.pendingPods, f, (System.nanoTime() - t0) / 1_000_000);
        }
    }

    // ------------------------------------------------------------------ shapes

    private void write(Shape shape) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("snapshot");
        switch (shape) {
            case LARGE, HETERO -> realistic(shape == Shape.HETERO);
            case GANG_1000X3 -> perf(5_000, 1_000, 3, 0);
            case GANG_10X5000 -> perf(5_000, 10, 5_000, 0);
            case TAS_750X4 -> perf(5_000, 750, 4, 40);
            case SMALL -> small();
        }
        g.writeEndObject();
        g.writeObjectFieldStart("options");
        g.writeBooleanField("preemption", true);
        g.writeEndObject();
        g.writeEndObject();
    }

    // ---------------------------------------------------- realistic cluster (large, hetero)

    private static final int REAL_NODES = 5_000;
    private static final int REAL_BOUND = 50_000;
    private static final int POOLS = 8;
    private static final String[] ZONES = {"eu-west-1a", "eu-west-1b", "eu-west-1c"};
    private static final String[] INSTANCE = {"m6i.4xlarge", "m6i.4xlarge", "r6i.4xlarge", "c6i.4xlarge"};
    private static final String[] APPS = {"checkout", "cart", "catalog", "search", "payments", "ledger", "auth",
            "profile", "reco", "inventory", "shipping", "notify", "gateway", "metrics-agent", "log-shipper",
            "feature-flags", "pricing", "reviews", "media", "session"};

    private void realistic(boolean hetero) throws IOException {
        g.writeArrayFieldStart("nodes");
        for (int i = 0; i < REAL_NODES; i++) {
            realNode(i);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("pods");
        for (int i = 0; i < REAL_BOUND; i++) {
            boundPod(i);
        }
        if (hetero) {
            for (int i = 0; i < 1_000; i++) {
                heteroPod(i);
            }
        } else {
            for (int i = 0; i < 1_000; i++) {
                gangPod("train", String.format(Locale.ROOT, "trainer-%04d", i), "trainer", "1", "2Gi", 3_600 + i);
            }
        }
        g.writeEndArray();
        g.writeArrayFieldStart("podGroups");
        if (hetero) {
            podGroup("mixed", "mixed", 1_000, null, 3_000);
        } else {
            podGroup("train", "trainer", 1_000, null, 3_000);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("priorityClasses");
        priorityClass("system-node-critical", 2_000_001_000);
        priorityClass("high", 100_000);
        g.writeEndArray();
    }

    private static String nodeName(int i) {
        return String.format(Locale.ROOT, "ip-10-%d-%d-%d.eu-west-1.compute.internal", i / 65_536 + 20,
                (i / 256) % 256, i % 256);
    }

    private void realNode(int i) throws IOException {
        String name = nodeName(i);
        String zone = ZONES[i % 3];
        int pool = i % POOLS;
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Node");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("uid", uid());
        g.writeStringField("resourceVersion", Integer.toString(1_000_000 + rnd.nextInt(9_000_000)));
        g.writeStringField("creationTimestamp", ts(-86_400 * 30 + i));
        g.writeObjectFieldStart("labels");
        g.writeStringField("beta.kubernetes.io/arch", "amd64");
        g.writeStringField("beta.kubernetes.io/instance-type", INSTANCE[pool % INSTANCE.length]);
        g.writeStringField("beta.kubernetes.io/os", "linux");
        g.writeStringField("failure-domain.beta.kubernetes.io/region", "eu-west-1");
        g.writeStringField("failure-domain.beta.kubernetes.io/zone", zone);
        g.writeStringField("kubernetes.io/arch", "amd64");
        g.writeStringField(HOSTNAME, name);
        g.writeStringField("kubernetes.io/os", "linux");
        g.writeStringField("node.kubernetes.io/instance-type", INSTANCE[pool % INSTANCE.length]);
        g.writeStringField("pool", "pool-" + pool);
        g.writeStringField("topology.kubernetes.io/region", "eu-west-1");
        g.writeStringField(ZONE, zone);
        g.writeStringField(RACK, "rack-" + (i / 40));
        g.writeEndObject();
        g.writeObjectFieldStart("annotations");
        g.writeStringField("alpha.kubernetes.io/provided-node-ip", "10.20." + (i / 256) % 256 + "." + i % 256);
        g.writeStringField("node.alpha.kubernetes.io/ttl", "0");
        g.writeStringField("volumes.kubernetes.io/controller-managed-attach-detach", "true");
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("podCIDR", "100.64." + (i % 256) + ".0/24");
        g.writeStringField("providerID", "aws:///" + zone + "/i-0" + Long.toHexString(rnd.nextLong() >>> 8));
        boolean gpuPool = pool == POOLS - 1;
        boolean maintenance = !gpuPool && i % 50 == 7;
        if (gpuPool || maintenance) {
            g.writeArrayFieldStart("taints");
            if (gpuPool) {
                taint("dedicated", "gpu", "NoSchedule");
            }
            if (maintenance) {
                taint("maintenance", null, "NoSchedule");
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeObjectFieldStart("capacity");
        g.writeStringField("cpu", "16");
        g.writeStringField("ephemeral-storage", "104845292Ki");
        g.writeStringField("hugepages-1Gi", "0");
        g.writeStringField("hugepages-2Mi", "0");
        g.writeStringField("memory", "65023428Ki");
        g.writeStringField("pods", "110");
        g.writeEndObject();
        g.writeObjectFieldStart("allocatable");
        g.writeStringField("cpu", "15890m");
        g.writeStringField("ephemeral-storage", "95551679124");
        g.writeStringField("hugepages-1Gi", "0");
        g.writeStringField("hugepages-2Mi", "0");
        g.writeStringField("memory", "64006596Ki");
        g.writeStringField("pods", "110");
        g.writeEndObject();
        g.writeArrayFieldStart("conditions");
        for (String[] c : new String[][]{{"MemoryPressure", "False", "KubeletHasSufficientMemory"},
                {"DiskPressure", "False", "KubeletHasNoDiskPressure"}, {"PIDPressure", "False", "KubeletHasSufficientPID"},
                {"Ready", "True", "KubeletReady"}}) {
            g.writeStartObject();
            g.writeStringField("type", c[0]);
            g.writeStringField("status", c[1]);
            g.writeStringField("lastHeartbeatTime", ts(3_000 + i % 60));
            g.writeStringField("lastTransitionTime", ts(-86_400 * 30 + i));
            g.writeStringField("reason", c[2]);
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("addresses");
        address("InternalIP", "10.20." + (i / 256) % 256 + "." + i % 256);
        address("Hostname", name);
        g.writeEndArray();
        g.writeObjectFieldStart("nodeInfo");
        g.writeStringField("architecture", "amd64");
        g.writeStringField("containerRuntimeVersion", "containerd://1.7.27");
        g.writeStringField("kernelVersion", "6.1.134-152.225.amzn2023.x86_64");
        g.writeStringField("kubeProxyVersion", "v1.36.0");
        g.writeStringField("kubeletVersion", "v1.36.0");
        g.writeStringField("operatingSystem", "linux");
        g.writeStringField("osImage", "Amazon Linux 2023.7.20250512");
        g.writeEndObject();
        g.writeArrayFieldStart("images");
        for (int k = 0; k < 4; k++) {
            g.writeStartObject();
            g.writeArrayFieldStart("names");
            g.writeString("registry.example/" + APPS[(i + k) % APPS.length] + "@sha256:" + hex(64));
            g.writeString("registry.example/" + APPS[(i + k) % APPS.length] + ":1." + k);
            g.writeEndArray();
            g.writeNumberField("sizeBytes", 10_000_000 + rnd.nextInt(200_000_000));
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void boundPod(int i) throws IOException {
        int node = i % REAL_NODES; // 10 per node
        int nodePool = node % POOLS;
        int appIx = rnd.nextInt(APPS.length);
        String app = APPS[appIx];
        String ns = "team-" + (appIx % 7);
        String hash = hex(10);
        String name = app + "-" + hash + "-" + hex(5);
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        g.writeStringField("uid", uid());
        g.writeStringField("resourceVersion", Integer.toString(1_000_000 + rnd.nextInt(9_000_000)));
        g.writeStringField("creationTimestamp", ts(-86_400 + i % 80_000));
        g.writeObjectFieldStart("labels");
        g.writeStringField("app", app);
        g.writeStringField("app.kubernetes.io/name", app);
        g.writeStringField("pod-template-hash", hash);
        g.writeEndObject();
        g.writeArrayFieldStart("ownerReferences");
        g.writeStartObject();
        g.writeStringField("apiVersion", "apps/v1");
        g.writeStringField("kind", "ReplicaSet");
        g.writeStringField("name", app + "-" + hash);
        g.writeStringField("uid", uid());
        g.writeBooleanField("controller", true);
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();

        g.writeObjectFieldStart("spec");
        int containers = 1 + rnd.nextInt(3);
        g.writeArrayFieldStart("containers");
        for (int c = 0; c < containers; c++) {
            container(c == 0 ? app : c == 1 ? "envoy" : "log-agent",
                    c == 0 ? (100 + 50 * rnd.nextInt(6)) + "m" : "50m",
                    c == 0 ? (128 + 64 * rnd.nextInt(8)) + "Mi" : "64Mi", c == 0);
        }
        g.writeEndArray();
        g.writeStringField("dnsPolicy", "ClusterFirst");
        g.writeStringField("nodeName", nodeName(node));
        if (nodePool == POOLS - 1) {
            g.writeObjectFieldStart("nodeSelector");
            g.writeStringField("pool", "pool-" + nodePool);
            g.writeEndObject();
        }
        g.writeStringField("preemptionPolicy", "PreemptLowerPriority");
        g.writeNumberField("priority", 0);
        g.writeStringField("restartPolicy", "Always");
        g.writeStringField("schedulerName", "default-scheduler");
        g.writeStringField("serviceAccountName", app);
        g.writeNumberField("terminationGracePeriodSeconds", 30);
        g.writeArrayFieldStart("tolerations");
        toleration("node.kubernetes.io/not-ready", "Exists", null, "NoExecute", 300L);
        toleration("node.kubernetes.io/unreachable", "Exists", null, "NoExecute", 300L);
        if (nodePool == POOLS - 1) {
            toleration("dedicated", "Equal", "gpu", "NoSchedule", null);
        }
        if (node % 50 == 7) {
            toleration("maintenance", "Exists", null, "NoSchedule", null);
        }
        g.writeEndArray();
        int kind = rnd.nextInt(20);
        if (kind < 12) { // typical Deployment: soft spread by hostname, sometimes zone
            g.writeObjectFieldStart("affinity");
            g.writeObjectFieldStart("podAntiAffinity");
            g.writeArrayFieldStart("preferredDuringSchedulingIgnoredDuringExecution");
            weightedTerm(100, "app", app, HOSTNAME);
            if (kind < 4) {
                weightedTerm(50, "app", app, ZONE);
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
        } else if (kind == 12) { // a few strict ones
            g.writeObjectFieldStart("affinity");
            g.writeObjectFieldStart("podAntiAffinity");
            g.writeArrayFieldStart("requiredDuringSchedulingIgnoredDuringExecution");
            affinityTerm("pod-template-hash", hash, HOSTNAME);
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
        } else if (kind == 13) {
            g.writeObjectFieldStart("affinity");
            g.writeObjectFieldStart("nodeAffinity");
            g.writeObjectFieldStart("requiredDuringSchedulingIgnoredDuringExecution");
            g.writeArrayFieldStart("nodeSelectorTerms");
            g.writeStartObject();
            g.writeArrayFieldStart("matchExpressions");
            requirement("kubernetes.io/os", "In", "linux");
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndObject();

        g.writeObjectFieldStart("status");
        g.writeStringField("phase", "Running");
        g.writeStringField("hostIP", "10.20." + (node / 256) % 256 + "." + node % 256);
        g.writeStringField("podIP", "100.64." + (node % 256) + "." + (i / REAL_NODES + 2));
        g.writeStringField("qosClass", "Burstable");
        g.writeStringField("startTime", ts(-86_400 + i % 80_000 + 2));
        g.writeArrayFieldStart("conditions");
        g.writeStartObject();
        g.writeStringField("type", "Ready");
        g.writeStringField("status", "True");
        g.writeStringField("lastTransitionTime", ts(-86_400 + i % 80_000 + 5));
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void container(String name, String cpu, String memory, boolean main) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("image", "registry.example/" + name + ":1." + rnd.nextInt(9));
        g.writeStringField("imagePullPolicy", "IfNotPresent");
        if (main) {
            g.writeArrayFieldStart("ports");
            g.writeStartObject();
            g.writeNumberField("containerPort", 8080);
            g.writeStringField("name", "http");
            g.writeStringField("protocol", "TCP");
            g.writeEndObject();
            g.writeEndArray();
        }
        g.writeObjectFieldStart("resources");
        g.writeObjectFieldStart("requests");
        g.writeStringField("cpu", cpu);
        g.writeStringField("memory", memory);
        g.writeEndObject();
        g.writeObjectFieldStart("limits");
        g.writeStringField("memory", memory);
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    /** One member of the heterogeneous group: 10 roles of 100 pods. */
    private void heteroPod(int i) throws IOException {
        int role = i / 100;
        String name = String.format(Locale.ROOT, "mixed-r%d-%03d", role, i % 100);
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("namespace", "mixed");
        g.writeStringField("uid", uid());
        g.writeStringField("creationTimestamp", ts(3_600 + i));
        g.writeObjectFieldStart("labels");
        g.writeStringField("job", "mixed");
        g.writeStringField("role", "r" + role);
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("schedulerName", "default-scheduler");
        g.writeObjectFieldStart("schedulingGroup");
        g.writeStringField("podGroupName", "mixed");
        g.writeEndObject();
        g.writeArrayFieldStart("containers");
        container("r" + role, (250 * (1 + role % 4)) + "m", (512 * (1 + role % 3)) + "Mi", true);
        if (role % 2 == 0) {
            container("sidecar", "50m", "64Mi", false);
        }
        g.writeEndArray();
        if (role < POOLS) { // roles 0..7: one pool each (pool-7 is the tainted gpu pool)
            g.writeObjectFieldStart("nodeSelector");
            g.writeStringField("pool", "pool-" + role);
            g.writeEndObject();
        }
        g.writeArrayFieldStart("tolerations");
        toleration("node.kubernetes.io/not-ready", "Exists", null, "NoExecute", 300L);
        toleration("node.kubernetes.io/unreachable", "Exists", null, "NoExecute", 300L);
        if (role == POOLS - 1 || role == 9) {
            toleration("dedicated", "Equal", "gpu", "NoSchedule", null);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("affinity");
        if (role >= POOLS) { // roles 8, 9: required node affinity on zones instead of a selector
            g.writeObjectFieldStart("nodeAffinity");
            g.writeObjectFieldStart("requiredDuringSchedulingIgnoredDuringExecution");
            g.writeArrayFieldStart("nodeSelectorTerms");
            g.writeStartObject();
            g.writeArrayFieldStart("matchExpressions");
            requirement(ZONE, "In", ZONES[0], ZONES[role - POOLS + 1]);
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeObjectFieldStart("podAntiAffinity");
        g.writeArrayFieldStart("requiredDuringSchedulingIgnoredDuringExecution");
        affinityTerm("role", "r" + role, HOSTNAME);
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    /** A homogeneous gang member in kubectl style (one container with requests and limits). */
    private void gangPod(String ns, String name, String group, String cpu, String memory, int createdSec)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        g.writeStringField("uid", uid());
        g.writeStringField("creationTimestamp", ts(createdSec));
        g.writeObjectFieldStart("labels");
        g.writeStringField("job", group);
        g.writeStringField("role", "worker");
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("schedulerName", "default-scheduler");
        g.writeObjectFieldStart("schedulingGroup");
        g.writeStringField("podGroupName", group);
        g.writeEndObject();
        g.writeArrayFieldStart("containers");
        container("worker", cpu, memory, true);
        g.writeEndArray();
        g.writeArrayFieldStart("tolerations");
        toleration("node.kubernetes.io/not-ready", "Exists", null, "NoExecute", 300L);
        toleration("node.kubernetes.io/unreachable", "Exists", null, "NoExecute", 300L);
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeStringField("phase", "Pending");
        g.writeEndObject();
        g.writeEndObject();
    }

    // ---------------------------------------------------- scheduler_perf shapes

    /** Default node template, {@code gangs × perGroup} pause pods in gang-ns-0; racks when {@code nodesPerRack > 0}. */
    private void perf(int nodes, int gangs, int perGroup, int nodesPerRack) throws IOException {
        g.writeArrayFieldStart("nodes");
        for (int i = 0; i < nodes; i++) {
            perfNode(i, nodesPerRack);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("pods");
        int pods = gangs * perGroup;
        for (int i = 0; i < pods; i++) {
            perfPod(i, "gang-" + (i / perGroup));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("podGroups");
        for (int k = 0; k < gangs; k++) {
            podGroup("gang-ns-0", "gang-" + k, perGroup, nodesPerRack > 0 ? RACK : null, 0);
        }
        g.writeEndArray();
    }

    private void perfNode(int i, int nodesPerRack) throws IOException {
        String name = "node-" + i;
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Node");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeObjectFieldStart("labels");
        g.writeStringField(HOSTNAME, name);
        g.writeStringField(ZONE, "zone-" + (i / 100));
        if (nodesPerRack > 0) {
            g.writeStringField(RACK, "rack-" + (i / nodesPerRack));
        }
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        for (String f : new String[]{"capacity", "allocatable"}) {
            g.writeObjectFieldStart(f);
            g.writeStringField("cpu", "4");
            g.writeStringField("memory", "32Gi");
            g.writeStringField("pods", "110");
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void perfPod(int i, String group) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", "pod-" + i);
        g.writeStringField("namespace", "gang-ns-0");
        g.writeStringField("creationTimestamp", ts(i / 100));
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeObjectFieldStart("schedulingGroup");
        g.writeStringField("podGroupName", group);
        g.writeEndObject();
        g.writeArrayFieldStart("containers");
        g.writeStartObject();
        g.writeStringField("name", "pause");
        g.writeStringField("image", "registry.k8s.io/pause:3.10");
        g.writeObjectFieldStart("resources");
        g.writeObjectFieldStart("requests");
        g.writeStringField("cpu", "100m");
        g.writeStringField("memory", "100Mi");
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    // ---------------------------------------------------- small (wrk)

    private void small() throws IOException {
        g.writeArrayFieldStart("nodes");
        for (int i = 0; i < 100; i++) {
            perfNode(i, 10);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("pods");
        for (int i = 0; i < 8; i++) {
            gangPod("small", "worker-" + i, "small", "500m", "1Gi", 60 + i);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("podGroups");
        podGroup("small", "small", 8, null, 0);
        g.writeEndArray();
    }

    // ---------------------------------------------------- pieces

    private void podGroup(String ns, String name, int minCount, String topologyKey, int createdSec) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "scheduling.k8s.io/v1alpha2");
        g.writeStringField("kind", "PodGroup");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        g.writeNumberField("generation", 1);
        g.writeStringField("creationTimestamp", ts(createdSec));
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeObjectFieldStart("schedulingPolicy");
        g.writeObjectFieldStart("gang");
        g.writeNumberField("minCount", minCount);
        g.writeEndObject();
        g.writeEndObject();
        if (topologyKey != null) {
            g.writeObjectFieldStart("schedulingConstraints");
            g.writeArrayFieldStart("topology");
            g.writeStartObject();
            g.writeStringField("key", topologyKey);
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void priorityClass(String name, int value) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "scheduling.k8s.io/v1");
        g.writeStringField("kind", "PriorityClass");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeEndObject();
        g.writeNumberField("value", value);
        g.writeEndObject();
    }

    private void taint(String key, String value, String effect) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", key);
        if (value != null) {
            g.writeStringField("value", value);
        }
        g.writeStringField("effect", effect);
        g.writeEndObject();
    }

    private void toleration(String key, String op, String value, String effect, Long seconds) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", key);
        g.writeStringField("operator", op);
        if (value != null) {
            g.writeStringField("value", value);
        }
        g.writeStringField("effect", effect);
        if (seconds != null) {
            g.writeNumberField("tolerationSeconds", seconds);
        }
        g.writeEndObject();
    }

    private void weightedTerm(int weight, String key, String value, String topologyKey) throws IOException {
        g.writeStartObject();
        g.writeNumberField("weight", weight);
        g.writeFieldName("podAffinityTerm");
        affinityTerm(key, value, topologyKey);
        g.writeEndObject();
    }

    private void affinityTerm(String key, String value, String topologyKey) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("labelSelector");
        g.writeObjectFieldStart("matchLabels");
        g.writeStringField(key, value);
        g.writeEndObject();
        g.writeEndObject();
        g.writeStringField("topologyKey", topologyKey);
        g.writeEndObject();
    }

    private void requirement(String key, String op, String... values) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", key);
        g.writeStringField("operator", op);
        g.writeArrayFieldStart("values");
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private void address(String type, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", type);
        g.writeStringField("address", value);
        g.writeEndObject();
    }

    /** A random version-4-looking UID (String.format is too slow for 100,000 of them). */
    private String uid() {
        char[] c = new char[36];
        long a = rnd.nextLong();
        long b = rnd.nextLong();
        for (int i = 0, k = 0; i < 36; i++) {
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                c[i] = '-';
            } else {
                long src = k < 16 ? a : b;
                c[i] = HEX[(int) (src >>> ((k % 16) * 4)) & 15];
                k++;
            }
        }
        c[14] = '4';
        c[19] = '8';
        return new String(c);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final char[] NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

    /** {@code n} characters: hex digits for long runs (digests), kube-style name suffix chars otherwise. */
    private String hex(int n) {
        char[] alphabet = n > 16 ? HEX : NAME_CHARS;
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = alphabet[rnd.nextInt(alphabet.length)];
        }
        return new String(c);
    }

    private static String ts(long offsetSec) {
        return EPOCH.plusSeconds(offsetSec).toString();
    }
}
