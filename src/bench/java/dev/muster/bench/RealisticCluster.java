package dev.muster.bench;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.util.Locale;
import java.util.SplittableRandom;

import static dev.muster.bench.RequestGenerator.HOSTNAME;
import static dev.muster.bench.RequestGenerator.RACK;
import static dev.muster.bench.RequestGenerator.ZONE;

/**
 * {@link RequestGenerator}'s realistic cluster ({@code large}, {@code hetero}): 5,000 kubectl-like nodes in pools and
 * zones, 50,000 bound pods of a score of apps with several containers, labels, annotations, owner references,
 * tolerations, affinity, volumes and status, then the pending group: one homogeneous 1,000-pod gang, or the
 * heterogeneous one of ten roles.
 */
final class RealisticCluster extends KubeWriter {
    private static final int REAL_NODES = 5_000;
    private static final int REAL_BOUND = 50_000;
    private static final int POOLS = 8;
    private static final String[] ZONES = {"eu-west-1a", "eu-west-1b", "eu-west-1c"};
    private static final String[] INSTANCE = {"m6i.4xlarge", "m6i.4xlarge", "r6i.4xlarge", "c6i.4xlarge"};
    private static final String[] APPS = {"checkout", "cart", "catalog", "search", "payments", "ledger", "auth",
            "profile", "reco", "inventory", "shipping", "notify", "gateway", "metrics-agent", "log-shipper",
            "feature-flags", "pricing", "reviews", "media", "session"};

    RealisticCluster(JsonGenerator g, SplittableRandom rnd) {
        super(g, rnd);
    }

    void realistic(boolean hetero) throws IOException {
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
}
