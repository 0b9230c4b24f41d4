package dev.muster.bench;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.FileClusterViewSource;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The file cluster view at scale: {@code FileViewScale [nodes] [pods] [dir] [read threads]} (defaults 100,000 nodes,
 * 1,000,000 bound pods, a new temporary directory, deleted at the end unless given, and the source's default files
 * read at once). Run it with {@code -Xmx4g}.
 * <p>
 * Writes the cluster as {@code kubectl get -o json} would print it, one file per slice: {@code nodes-NN.json} with
 * 5,000 nodes each and {@code pods-ns-NNN.json}, the pods of one of 200 namespaces each (compact JSON, kubectl's key
 * order, the fields a real object carries: owner references, a projected service-account volume, the default
 * tolerations, conditions and container statuses; nodes with conditions, addresses, node info and images). Then
 * loads the directory through {@link FileClusterViewSource} with the request validator at the view's limits, and
 * prints the load time, the heap retained after GC with the view loaded and with its snapshot compiled, and the same
 * for a reload after one pod file changed (one pod moved to another node): its time, the derived compile, the heap
 * pools' peak during it (their sum: an upper bound) and the collections it caused.
 */
public final class FileViewScale {
    static final int NAMESPACES = 200;
    static final int NODES_PER_FILE = 5_000;

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int pods = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        boolean temporary = args.length <= 2;
        Path dir = temporary ? Files.createTempDirectory("muster-file-view") : Path.of(args[2]);
        int readThreads = args.length > 3 ? Integer.parseInt(args[3])
                : FileClusterViewSource.Limits.defaultReadThreads();
        Files.createDirectories(dir);
        System.out.println(ExtenderScale.machine());
        try {
            run(dir, nodes, pods, readThreads);
        } finally {
            if (temporary) {
                try (Stream<Path> s = Files.walk(dir)) {
                    s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
        System.out.println(ExtenderScale.machine());
    }

    private static void run(Path dir, int nodes, int pods, int readThreads) throws IOException {
        long t0 = System.nanoTime();
        long bytes = 0;
        int files = 0;
        for (int from = 0; from < nodes; from += NODES_PER_FILE) {
            bytes += writeNodes(dir.resolve(String.format(Locale.ROOT, "nodes-%02d.json", from / NODES_PER_FILE)),
                    from, Math.min(nodes, from + NODES_PER_FILE));
            files++;
        }
        for (int ns = 0; ns < NAMESPACES; ns++) {
            bytes += writePods(podFile(dir, ns), ns, pods, nodes, -1);
            files++;
        }
        System.out.printf(Locale.ROOT, "wrote %d files, %.0f MB (largest %.1f MB) in %.1f s%n", files, bytes / 1e6,
                largest(dir) / 1e6, (System.nanoTime() - t0) / 1e9);
        ExtenderScale.heap("heap before loading");

        ValidationLimits limits = new ValidationLimits(nodes, pods, 20_000, 100_000, 1_000);
        RequestValidator validator = new RequestValidator(limits);
        FileClusterViewSource.Limits sourceLimits = new FileClusterViewSource.Limits(
                KubeCodec.Limits.DEFAULT.maxDocumentLength(), KubeCodec.Limits.DEFAULT, limits, readThreads);
        System.out.printf(Locale.ROOT, "%d file(s) read at once%n", readThreads);
        long gcBefore = gcCount();
        long gcTimeBefore = gcMillis();
        resetPeaks();
        long t1 = System.nanoTime();
        FileClusterViewSource source = new FileClusterViewSource(dir, 0, System::currentTimeMillis,
                (s, where) -> summary(validator.validateSnapshot(s, "snapshot"), where), sourceLimits);
        WatchedClusterVersion view = source.current();
        double load = (System.nanoTime() - t1) / 1e9;
        if (source.lastError().isPresent()) {
            throw new IllegalStateException(source.lastError().get());
        }
        System.out.printf(Locale.ROOT, "loaded %s in %.1f s (read + decode + validate + sort + map); %d collections, "
                        + "%.1f s in GC; heap pools' peak %.0f MB%n", view, load, gcCount() - gcBefore,
                (gcMillis() - gcTimeBefore) / 1e3, peaks() / 1e6);
        ExtenderScale.heap("heap retained (view loaded)");

        long t2 = System.nanoTime();
        view.compiled();
        System.out.printf(Locale.ROOT, "compiled in %.1f s%n", (System.nanoTime() - t2) / 1e9);
        ExtenderScale.heap("heap retained (view loaded and compiled)");

        // one pod of namespace 7 moves to another node
        writePods(podFile(dir, 7), 7, pods, nodes, 7);
        Files.setLastModifiedTime(podFile(dir, 7), FileTime.fromMillis(System.currentTimeMillis() + 1000));
        gcBefore = gcCount();
        gcTimeBefore = gcMillis();
        resetPeaks();
        long t3 = System.nanoTime();
        WatchedClusterVersion next = source.current();
        double reload = (System.nanoTime() - t3) / 1e9;
        if (next.generation() != view.generation() + 1) {
            throw new IllegalStateException("no reload: " + next + " " + source.lastError().orElse(""));
        }
        long t4 = System.nanoTime();
        next.compiled();
        double derive = (System.nanoTime() - t4) / 1e9;
        System.out.printf(Locale.ROOT, "reloaded after one file changed in %.1f s, compiled (derived) in %.2f s; "
                        + "%d collections, %.1f s in GC; heap pools' peak %.0f MB%n", reload, derive,
                gcCount() - gcBefore, (gcMillis() - gcTimeBefore) / 1e3, peaks() / 1e6);
        view = null;
        ExtenderScale.heap("heap retained (reloaded view compiled)");
        source.close();
    }

    static Path podFile(Path dir, int ns) {
        return dir.resolve(String.format(Locale.ROOT, "pods-ns-%03d.json", ns));
    }

    private static long largest(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.mapToLong(p -> p.toFile().length()).max().orElse(0);
        }
    }

    private static String summary(Causes causes, java.util.function.UnaryOperator<String> where) {
        if (causes.isEmpty()) {
            return null;
        }
        var c = causes.list().get(0);
        return where.apply(c.field()) + ": " + c.summary() + " (" + causes.total() + " causes)";
    }

    // ------------------------------------------------------------------ the files

    private static long writeNodes(Path file, int from, int to) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("{\"apiVersion\":\"v1\",\"items\":[");
            for (int i = from; i < to; i++) {
                if (i > from) {
                    w.write(',');
                }
                w.write(node(i));
            }
            w.write("],\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"\"}}");
        }
        return Files.size(file);
    }

    /** The pods of namespace {@code ns} (pods {@code i} with {@code i % NAMESPACES == ns}); pod {@code moved} elsewhere. */
    private static long writePods(Path file, int ns, int pods, int nodes, int moved) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("{\"apiVersion\":\"v1\",\"items\":[");
            boolean first = true;
            for (int i = ns; i < pods; i += NAMESPACES) {
                if (!first) {
                    w.write(',');
                }
                first = false;
                int node = (int) ((long) i * nodes / pods);
                w.write(pod(i, i == moved ? (node + 1) % nodes : node));
            }
            w.write("],\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"\"}}");
        }
        return Files.size(file);
    }

    static String nodeName(int i) {
        return String.format(Locale.ROOT, "node-%06d", i);
    }

    private static final String[] IMAGES = {"registry.k8s.io/kube-proxy:v1.36.0", "registry.k8s.io/pause:3.10",
            "registry.example/app:1.2.3", "registry.example/sidecar:0.9.1", "docker.io/library/busybox:1.36"};

    static String node(int i) {
        String name = nodeName(i);
        StringBuilder images = new StringBuilder();
        for (int k = 0; k < IMAGES.length; k++) {
            images.append(k == 0 ? "" : ",").append("{\"names\":[\"").append(IMAGES[k]).append("\"],\"sizeBytes\":")
                    .append(10_000_000 + k * 1_234_567).append('}');
        }
        return "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"annotations\":{\"node.alpha.kubernetes.io/ttl\""
                + ":\"0\",\"volumes.kubernetes.io/controller-managed-attach-detach\":\"true\"},\"creationTimestamp\":"
                + "\"2026-01-01T00:00:00Z\",\"labels\":{\"kubernetes.io/arch\":\"amd64\",\"kubernetes.io/hostname\":\""
                + name + "\",\"kubernetes.io/os\":\"linux\",\"node.kubernetes.io/instance-type\":\"m6i.16xlarge\","
                + "\"pool\":\"pool-a\",\"topology.kubernetes.io/rack\":\"" + String.format(Locale.ROOT, "rack-%04d",
                i / 50) + "\",\"topology.kubernetes.io/zone\":\"zone-" + i / 10_000 + "\"},\"name\":\"" + name
                + "\",\"resourceVersion\":\"" + (1000 + i) + "\",\"uid\":\"" + uid(i, 0x6e) + "\"},\"spec\":"
                + "{\"podCIDR\":\"10." + (i >> 8 & 255) + "." + (i & 255) + ".0/24\",\"providerID\":\"aws:///zone/i-"
                + Integer.toHexString(0x1000000 + i) + "\"},\"status\":{\"addresses\":[{\"address\":\"10.0."
                + (i >> 8 & 255) + "." + (i & 255) + "\",\"type\":\"InternalIP\"},{\"address\":\"" + name
                + "\",\"type\":\"Hostname\"}],\"allocatable\":{\"cpu\":\"63500m\",\"ephemeral-storage\":\"95Gi\","
                + "\"memory\":\"250Gi\",\"pods\":\"110\"},\"capacity\":{\"cpu\":\"64\",\"ephemeral-storage\":\"100Gi\","
                + "\"memory\":\"256Gi\",\"pods\":\"110\"},\"conditions\":[" + condition("MemoryPressure", "False")
                + "," + condition("DiskPressure", "False") + "," + condition("PIDPressure", "False") + ","
                + condition("Ready", "True") + "],\"daemonEndpoints\":{\"kubeletEndpoint\":{\"Port\":10250}},"
                + "\"images\":[" + images + "],\"nodeInfo\":{\"architecture\":\"amd64\",\"containerRuntimeVersion\":"
                + "\"containerd://2.1.0\",\"kernelVersion\":\"6.8.0\",\"kubeProxyVersion\":\"v1.36.0\","
                + "\"kubeletVersion\":\"v1.36.0\",\"operatingSystem\":\"linux\",\"osImage\":\"Ubuntu 24.04 LTS\"}}}";
    }

    private static String condition(String type, String status) {
        return "{\"lastHeartbeatTime\":\"2026-01-01T00:00:00Z\",\"lastTransitionTime\":\"2026-01-01T00:00:00Z\","
                + "\"message\":\"kubelet reports " + type + " " + status + "\",\"reason\":\"Kubelet" + type + "\","
                + "\"status\":\"" + status + "\",\"type\":\"" + type + "\"}";
    }

    private static final String[] CPU = {"250m", "500m", "1", "2"};

    static String pod(int i, int node) {
        String ns = String.format(Locale.ROOT, "ns-%03d", i % NAMESPACES);
        String name = String.format(Locale.ROOT, "app-%07d", i);
        String rs = "app-" + i / 10 + "-" + Integer.toHexString(0x5f00000 + i / 10);
        String token = "kube-api-access-" + Integer.toString(i % 46_656 + 46_656, 36).substring(1);
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"creationTimestamp\":\"2026-01-01T00:00:00Z\","
                + "\"generateName\":\"" + rs + "-\",\"labels\":{\"app\":\"app-" + i / 10 + "\",\"pod-template-hash\":\""
                + Integer.toHexString(0x5f00000 + i / 10) + "\",\"tier\":\"" + (i % 3 == 0 ? "web" : "batch")
                + "\"},\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"ownerReferences\":[{\"apiVersion\":"
                + "\"apps/v1\",\"blockOwnerDeletion\":true,\"controller\":true,\"kind\":\"ReplicaSet\",\"name\":\"" + rs
                + "\",\"uid\":\"" + uid(i / 10, 0x72) + "\"}],\"resourceVersion\":\"" + (200_000 + i) + "\",\"uid\":\""
                + uid(i, 0x70) + "\"},\"spec\":{\"containers\":[{\"image\":\"registry.example/app:1.2.3\","
                + "\"imagePullPolicy\":\"IfNotPresent\",\"name\":\"app\",\"ports\":[{\"containerPort\":8080,"
                + "\"protocol\":\"TCP\"}],\"resources\":{\"limits\":{\"memory\":\"" + (2 + i % 4) + "Gi\"},"
                + "\"requests\":{\"cpu\":\"" + CPU[i % 4] + "\",\"memory\":\"" + (1 + i % 4) + "Gi\"}},"
                + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\","
                + "\"volumeMounts\":[{\"mountPath\":\"/var/run/secrets/kubernetes.io/serviceaccount\",\"name\":\""
                + token + "\",\"readOnly\":true}]}],\"dnsPolicy\":\"ClusterFirst\",\"enableServiceLinks\":true,"
                + "\"nodeName\":\"" + nodeName(node) + "\",\"preemptionPolicy\":\"PreemptLowerPriority\","
                + "\"priority\":0,\"restartPolicy\":\"Always\",\"schedulerName\":\"default-scheduler\","
                + "\"securityContext\":{},\"serviceAccount\":\"default\",\"serviceAccountName\":\"default\","
                + "\"terminationGracePeriodSeconds\":30,\"tolerations\":[{\"effect\":\"NoExecute\",\"key\":"
                + "\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"tolerationSeconds\":300},{\"effect\":"
                + "\"NoExecute\",\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\","
                + "\"tolerationSeconds\":300}],\"volumes\":[{\"name\":\"" + token + "\",\"projected\":{\"defaultMode\""
                + ":420,\"sources\":[{\"serviceAccountToken\":{\"expirationSeconds\":3607,\"path\":\"token\"}}]}}]},"
                + "\"status\":{\"conditions\":[" + podCondition("PodReadyToStartContainers") + ","
                + podCondition("Initialized") + "," + podCondition("Ready") + "," + podCondition("ContainersReady")
                + "," + podCondition("PodScheduled") + "],\"containerStatuses\":[{\"containerID\":\"containerd://"
                + uid(i, 0x63).replace("-", "") + "\",\"image\":\"registry.example/app:1.2.3\",\"imageID\":"
                + "\"registry.example/app@sha256:0123456789abcdef\",\"lastState\":{},\"name\":\"app\",\"ready\":true,"
                + "\"restartCount\":0,\"started\":true,\"state\":{\"running\":{\"startedAt\":\"2026-01-01T00:00:05Z\"}}}],"
                + "\"hostIP\":\"10.0." + (node >> 8 & 255) + "." + (node & 255) + "\",\"phase\":\"Running\","
                + "\"podIP\":\"10." + (node >> 8 & 255) + "." + (node & 255) + "." + (i % 250 + 2) + "\","
                + "\"qosClass\":\"Burstable\",\"startTime\":\"2026-01-01T00:00:00Z\"}}";
    }

    private static String podCondition(String type) {
        return "{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-01-01T00:00:05Z\",\"status\":\"True\","
                + "\"type\":\"" + type + "\"}";
    }

    private static String uid(int i, int kind) {
        String h = String.format(Locale.ROOT, "%08x%02x", i, kind);
        return h.substring(0, 8) + "-" + h.substring(8) + "00-4000-8000-" + String.format(Locale.ROOT, "%012x", i);
    }

    // ------------------------------------------------------------------ measuring

    private static void resetPeaks() {
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                p.resetPeakUsage();
            }
        }
    }

    private static long peaks() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount());
        }
        return n;
    }

    private static long gcMillis() {
        long n = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionTime());
        }
        return n;
    }
}
