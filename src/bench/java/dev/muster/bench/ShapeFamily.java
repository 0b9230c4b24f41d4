package dev.muster.bench;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A family of seeded DRA requests of the kinds real GPU clusters present (see {@link Shape}), for judging the engine
 * on families of shapes rather than on one hand-made file: {@code generate(shape, seed)} gives the bytes a client
 * would POST to /v1/decisions.
 * <p>
 * The cluster of a seed is the same for every shape (apart from what the shape adds): nodes in racks of a size drawn
 * per rack, each rack of one node type (CPU and memory) and driver version, 8 GPUs per node published by one
 * ResourceSlice with the attributes a GPU driver publishes ({@code uuid} unique per device, {@code interconnect}
 * per NVLink domain: one per node, or two islands of four on the racks of PCIe nodes), a GPU taint on every node,
 * two DaemonSet pods per node and a seeded density of bound workload pods. Names (nodes, racks, jobs, claims)
 * come from the seed. Two seeds are two clusters of the same kind.
 * <p>
 * Every request comes with the outcome a correct decision has ({@link Generated#expected()}), counted from the
 * layout: the members each node can take (free matching devices, CPU, memory, pod slots), summed per rack.
 */
public final class ShapeFamily {
    static final String DRIVER = "gpu.example.com";
    static final String RACK = RequestGenerator.RACK;
    static final int GPUS = 8;

    /** The shapes; each is 5,000 nodes and a 1,000-pod gang at full scale unless said otherwise. */
    public enum Shape {
        /** Every member's claim already generated from its template by the claim controller (the default). */
        GENERATED("generated"),
        /** The same, the claims left for the service to name: no ResourceClaims, no claim statuses. */
        SYNTHESIZED("synthesized"),
        /** H100 80Gi, A100 40Gi and L4 24Gi racks; the request selector (memory at least 80Gi) fits H100 racks only. */
        MIXED_MODELS("mixed-models"),
        /** A quarter of all GPUs allocated to bound pods' claims (1, 2, 4 or 8 per pod, scattered). */
        HELD("held"),
        /** One PodGroup claim shared by every member (a fabric channel published per rack), plus a GPU each. */
        SHARED_CLAIM("shared-claim"),
        /**
         * Partitionable GPUs on about 30 % of the racks (a MIG node pool): counters per GPU, the whole GPU and 7
         * partitions; members ask for a 2g.20gb partition (2 CPU / 16Gi each).
         */
        PARTITIONS("partitions"),
        /** firstAvailable: a 141Gi GPU (none exists), then 80Gi, then 40Gi. */
        FIRST_AVAILABLE("first-available"),
        /** 8-GPU members with matchAttribute on the interconnect; a gang of 125 (an eighth of the gang). */
        INTERCONNECT("interconnect"),
        /** Four gangs of 250 (a quarter each), each in one rack, in one request. */
        FOUR_GANGS("four-gangs"),
        /** The gang without a topology constraint. */
        NO_TOPOLOGY("no-topology"),
        /** 10,000 plain pending pods (ten times the gang) with one generated claim each, no PodGroup. */
        PLAIN_PODS("plain-pods"),
        /**
         * An idle cluster of one node type in racks of one size, members of 12 CPUs: a rack's summed capacity holds
         * the gang, but a node takes 7 members, so no rack does and each rack's trial fails late (Unschedulable).
         * Its racks differ from the other shapes' (one seed, another cluster).
         */
        ALIKE_RACKS("alike-racks"),
        /** The extender's first filter call after a view change, on the cluster and gang of {@code generated}. */
        EXTENDER("extender");

        public final String id;

        Shape(String id) {
            this.id = id;
        }

        public static Shape of(String id) {
            for (Shape s : values()) {
                if (s.id.equals(id)) {
                    return s;
                }
            }
            List<String> ids = new ArrayList<>();
            for (Shape s : values()) {
                ids.add(s.id);
            }
            throw new IllegalArgumentException("unknown shape " + id + "; one of " + String.join(", ", ids));
        }
    }

    /** Nodes, and the gang size the shapes scale from (racks, plain pods and the other gangs follow it). */
    public record Scale(int nodes, int gang) {
        public static final Scale FULL = new Scale(5_000, 1_000);
    }

    /**
     * A generated request: its bytes, the pods pending in it, the outcome a correct decision has (as
     * {@link #outcome} prints one; {@code null} when not known ahead), and for the extender a pending member's pod
     * JSON.
     */
    public record Generated(Shape shape, long seed, Scale scale, byte[] body, int nodes, int pending,
                            String expected, byte[] memberPod) {
    }

    public static byte[] generate(Shape shape, long seed) {
        return build(shape, seed, Scale.FULL).body();
    }

    public static byte[] generate(Shape shape, long seed, Scale scale) {
        return build(shape, seed, scale).body();
    }

    public static Generated build(Shape shape, long seed, Scale scale) {
        Layout layout = new Layout(shape, seed, scale);
        return FamilyObjects.write(layout);
    }

    /** Outcomes counted alike: {@code "Scheduled 1000"}, {@code "4 × Scheduled 250"}, {@code "no decisions"}. */
    static String outcome(List<String> perGroup) {
        if (perGroup.isEmpty()) {
            return "no decisions";
        }
        java.util.Map<String, Integer> n = new java.util.LinkedHashMap<>();
        for (String g : perGroup) {
            n.merge(g, 1, Integer::sum);
        }
        List<String> parts = new ArrayList<>();
        n.forEach((k, v) -> parts.add(v == 1 ? k : v + " × " + k));
        return String.join(", ", parts);
    }

    // ---------------------------------------------------------------------------------------------- the cluster

    record NodeType(String instanceType, int cpu, int memoryGi) {
    }

    record Model(String product, int memoryGi, String architecture, String computeCapability) {
    }

    static final NodeType[] NODE_TYPES = {
            new NodeType("a3-highgpu-8g", 208, 1872), new NodeType("p5.48xlarge", 192, 2048),
            new NodeType("nd96isr-h100-v5", 96, 1900), new NodeType("dgx-h100", 224, 2048),
            new NodeType("gpu-8x-h100-128c", 128, 1024)};
    static final Model H100 = new Model("H100-SXM5-80GB", 80, "Hopper", "9.0.0");
    static final Model A100 = new Model("A100-SXM4-40GB", 40, "Ampere", "8.0.0");
    static final Model L4 = new Model("L4-24GB", 24, "Ada Lovelace", "8.9.0");
    static final String[] DRIVER_VERSIONS = {"550.54.15", "570.124.6"};

    static final class Rack {
        String name;
        String zone;
        String poolHash;
        int first;
        int count;
        NodeType type;
        Model model = H100;
        String driverVersion;
        /** PCIe nodes: two NVLink islands of four GPUs instead of one domain of eight. */
        boolean islands;
        /** Partitioned GPUs (shape partitions). */
        boolean mig;
    }

    static final class NodeData {
        String name;
        String ip;
        int rack;
        long cpuMilli;
        long memMi;
        long usedCpu;
        long usedMem;
        int usedPods;
        final boolean[] held = new boolean[GPUS];
        final String[] uuids = new String[GPUS];
    }

    /** A bound pod before it is written: where it runs and what it asks for. */
    record Bound(String namespace, String name, String app, String owner, int node, long cpuMilli, long memMi,
                 int[] gpus) {
    }

    /** What one pending member asks for, and how many of them one node can take. */
    record Member(long cpuMilli, long memMi) {
    }

    /**
     * The seeded cluster of one request. The draws that make the cluster come first and in the same order for
     * every shape, so one seed gives the same racks, nodes and bound pods whatever the shape; what a shape adds
     * (models, held devices) draws from streams of its own.
     */
    static final class Layout {
        final Shape shape;
        final long seed;
        final Scale scale;
        final SplittableRandom rnd;
        final String cluster;
        final List<Rack> racks = new ArrayList<>();
        final NodeData[] nodes;
        final List<Bound> bound = new ArrayList<>();
        final List<Bound> holders = new ArrayList<>();
        private final Set<String> names = new HashSet<>();

        Layout(Shape shape, long seed, Scale scale) {
            this.shape = shape;
            this.seed = seed;
            this.scale = scale;
            this.rnd = new SplittableRandom(seed);
            this.cluster = word(4);
            this.nodes = new NodeData[scale.nodes()];
            racks();
            nodes();
            workloads();
            if (shape == Shape.MIXED_MODELS) {
                models(new SplittableRandom(seed * 31 + 7));
            }
            if (shape == Shape.PARTITIONS) {
                partitioned(new SplittableRandom(seed * 31 + 13));
            }
            if (shape == Shape.HELD) {
                hold(new SplittableRandom(seed * 31 + 11));
            }
        }

        int gang() {
            return switch (shape) {
                case INTERCONNECT -> Math.max(1, scale.gang() / 8);
                default -> scale.gang();
            };
        }

        int gangs() {
            return shape == Shape.FOUR_GANGS ? 4 : shape == Shape.PLAIN_PODS ? 0 : 1;
        }

        int perGang() {
            return shape == Shape.FOUR_GANGS ? Math.max(1, gang() / 4) : gang();
        }

        int plainPods() {
            return shape == Shape.PLAIN_PODS ? scale.gang() * 10 : 0;
        }

        int pending() {
            return shape == Shape.PLAIN_PODS ? plainPods() : gangs() * perGang();
        }

        boolean topology() {
            return shape != Shape.NO_TOPOLOGY && shape != Shape.PLAIN_PODS;
        }

        Member member() {
            return switch (shape) {
                case PARTITIONS -> new Member(2_000, 16 * 1024);
                case INTERCONNECT -> new Member(48_000, 512 * 1024);
                case PLAIN_PODS -> new Member(4_000, 32 * 1024);
                case ALIKE_RACKS -> new Member(12_000, 64 * 1024);
                default -> new Member(8_000, 64 * 1024);
            };
        }

        /** Racks of 15 % to 24 % of the gang size in nodes (150 to 240 at full scale); the last takes the rest. */
        private void racks() {
            int lo = Math.max(2, Math.round(0.15f * scale.gang()));
            int hi = Math.max(lo, Math.round(0.24f * scale.gang()));
            int at = 0;
            int i = 0;
            while (at < scale.nodes()) {
                Rack r = new Rack();
                r.count = Math.min(scale.nodes() - at, lo + rnd.nextInt(hi - lo + 1));
                r.first = at;
                r.name = unique("rack-" + word(3) + "-" + String.format(Locale.ROOT, "%02d", i));
                r.poolHash = hex(8);
                r.type = NODE_TYPES[rnd.nextInt(NODE_TYPES.length)];
                r.driverVersion = DRIVER_VERSIONS[rnd.nextInt(DRIVER_VERSIONS.length)];
                r.islands = rnd.nextInt(10) < 3;
                if (shape == Shape.ALIKE_RACKS) { // 13.5 % of the gang in nodes: 7 members a node fall short
                    r.count = Math.min(scale.nodes() - at, Math.max(2, Math.round(0.135f * scale.gang())));
                    r.type = NODE_TYPES[2];
                    r.driverVersion = DRIVER_VERSIONS[0];
                    r.islands = false;
                }
                racks.add(r);
                at += r.count;
                i++;
            }
            String[] zones = {"a", "b", "c"};
            for (int k = 0; k < racks.size(); k++) {
                racks.get(k).zone = "us-east5-" + zones[k * zones.length / racks.size()];
            }
        }

        private void nodes() {
            for (int ri = 0; ri < racks.size(); ri++) {
                Rack r = racks.get(ri);
                for (int k = 0; k < r.count; k++) {
                    NodeData n = new NodeData();
                    n.rack = ri;
                    n.name = unique("gke-" + cluster + "-gpu-" + r.poolHash + "-" + word(4));
                    n.ip = "10." + (ri / 64) + "." + (ri % 64 * 4 + k / 250) + "." + (k % 250 + 2);
                    n.cpuMilli = r.type.cpu() * 1000L - 500;
                    n.memMi = r.type.memoryGi() * 1024L - 4 * 1024;
                    for (int d = 0; d < GPUS; d++) {
                        n.uuids[d] = "GPU-" + uuid(rnd);
                    }
                    nodes[r.first + k] = n;
                }
            }
        }

        /**
         * Two DaemonSet pods per node (counted here, written by the writer) and workload pods at a density drawn per
         * rack (0 to 2λ per node, λ from 1 to 8), each taken while the node's workloads stay within half its CPU.
         */
        private void workloads() {
            long[] cpus = {250, 500, 1_000, 2_000, 4_000, 8_000, 16_000};
            String[] namespaces = {"serving", "data", "monitoring", "ingest", "features", "eval", "notebooks", "etl"};
            for (Rack r : racks) {
                int lambda = 1 + rnd.nextInt(8);
                for (int k = 0; k < r.count; k++) {
                    int ni = r.first + k;
                    NodeData n = nodes[ni];
                    n.usedCpu += 150;
                    n.usedMem += 192;
                    n.usedPods += 2;
                    int count = shape == Shape.ALIKE_RACKS ? 0 : rnd.nextInt(2 * lambda + 1);
                    for (int p = 0; p < count; p++) {
                        long cpu = cpus[rnd.nextInt(cpus.length)];
                        long mem = cpu * (rnd.nextBoolean() ? 2 : 4) * 1024 / 1000;
                        String ns = namespaces[rnd.nextInt(namespaces.length)];
                        String app = ns + "-" + word(5);
                        if (n.usedCpu + cpu > n.cpuMilli / 2) {
                            continue;
                        }
                        n.usedCpu += cpu;
                        n.usedMem += mem;
                        n.usedPods++;
                        String rs = app + "-" + hex(10);
                        bound.add(new Bound(ns, generateName("pod/" + ns, rs + "-"), app, rs, ni, cpu, mem, null));
                    }
                }
            }
        }

        /** About 30 % of the racks partitioned; the rack that holds the most members if none holds the gang. */
        private void partitioned(SplittableRandom r) {
            for (Rack rack : racks) {
                rack.mig = r.nextInt(10) < 3;
            }
            if (maxRack() < perGang()) {
                int best = 0;
                long most = -1;
                for (int i = 0; i < racks.size(); i++) {
                    boolean was = racks.get(i).mig;
                    racks.get(i).mig = true;
                    long c = rackCapacity(i);
                    racks.get(i).mig = was;
                    if (c > most) {
                        most = c;
                        best = i;
                    }
                }
                racks.get(best).mig = true;
            }
        }

        /** Models per rack: H100 40 %, A100 35 %, L4 25 %; the rack that holds the most members H100 if none is. */
        private void models(SplittableRandom r) {
            for (Rack rack : racks) {
                int x = r.nextInt(100);
                rack.model = x < 40 ? H100 : x < 75 ? A100 : L4;
            }
            if (maxRack() < perGang()) {
                int best = 0;
                long most = -1;
                for (int i = 0; i < racks.size(); i++) {
                    Model was = racks.get(i).model;
                    racks.get(i).model = H100;
                    long c = rackCapacity(i);
                    racks.get(i).model = was;
                    if (c > most) {
                        most = c;
                        best = i;
                    }
                }
                racks.get(best).model = H100;
            }
        }

        /**
         * A quarter of all GPUs held by bound pods' claims: each holder takes 1 (40 %), 2 (25 %), 4 (20 %) or 8
         * (15 %) free GPUs of a random node, chosen at random among its free ones, with 4 CPU and 32Gi per GPU.
         */
        private void hold(SplittableRandom r) {
            long target = (long) nodes.length * GPUS / 4;
            long held = 0;
            int misses = 0;
            String[] models = {"llama-70b", "mixtral-8x22b", "qwen-72b", "embed-large", "whisper-v3"};
            while (held < target && misses < 100_000) {
                int x = r.nextInt(100);
                int k = x < 40 ? 1 : x < 65 ? 2 : x < 85 ? 4 : 8;
                k = (int) Math.min(k, target - held);
                int ni = r.nextInt(nodes.length);
                NodeData n = nodes[ni];
                int free = 0;
                for (boolean h : n.held) {
                    free += h ? 0 : 1;
                }
                long cpu = 4_000L * k;
                long mem = 32L * 1024 * k;
                if (free < k || n.usedCpu + cpu > n.cpuMilli || n.usedMem + mem > n.memMi || n.usedPods >= 110) {
                    misses++;
                    continue;
                }
                int[] gpus = new int[k];
                for (int g = 0; g < k; g++) {
                    int d;
                    do {
                        d = r.nextInt(GPUS);
                    } while (n.held[d]);
                    n.held[d] = true;
                    gpus[g] = d;
                }
                java.util.Arrays.sort(gpus);
                n.usedCpu += cpu;
                n.usedMem += mem;
                n.usedPods++;
                held += k;
                String app = "vllm-" + models[r.nextInt(models.length)];
                String rs = app + "-" + hex(10);
                holders.add(new Bound("inference", generateName("pod/inference", rs + "-"), app, rs, ni, cpu, mem, gpus));
            }
        }

        /** Members node {@code i} can take: free matching devices, CPU, memory and pod slots, the smallest. */
        long nodeCapacity(int i) {
            NodeData n = nodes[i];
            Rack r = racks.get(n.rack);
            Member m = member();
            long byCpu = (n.cpuMilli - n.usedCpu) / m.cpuMilli();
            long byMem = (n.memMi - n.usedMem) / m.memMi();
            long byPods = 110 - n.usedPods;
            long free = 0;
            for (boolean h : n.held) {
                free += h ? 0 : 1;
            }
            long byDevices = switch (shape) {
                case MIXED_MODELS -> r.model.memoryGi() >= 80 ? free : 0;
                case PARTITIONS -> r.mig ? 2L * GPUS : 0;
                case INTERCONNECT -> !r.islands && free == GPUS ? 1 : 0;
                default -> free;
            };
            return Math.min(Math.min(byCpu, byMem), Math.min(byPods, byDevices));
        }

        long rackCapacity(int ri) {
            Rack r = racks.get(ri);
            long c = 0;
            for (int k = 0; k < r.count; k++) {
                c += nodeCapacity(r.first + k);
            }
            return c;
        }

        long maxRack() {
            long best = 0;
            for (int i = 0; i < racks.size(); i++) {
                best = Math.max(best, rackCapacity(i));
            }
            return best;
        }

        /** The outcome a correct decision has, as {@link ShapeFamily#outcome} prints it; null if not known. */
        String expected() {
            if (shape == Shape.PLAIN_PODS) {
                return null;
            }
            int per = perGang();
            long fits;
            if (topology()) {
                fits = 0;
                for (int i = 0; i < racks.size(); i++) {
                    fits += rackCapacity(i) / per;
                }
            } else {
                long all = 0;
                for (int i = 0; i < nodes.length; i++) {
                    all += nodeCapacity(i);
                }
                fits = all / per;
            }
            List<String> out = new ArrayList<>();
            if (fits >= gangs()) {
                for (int g = 0; g < gangs(); g++) {
                    out.add("Scheduled " + per);
                }
            } else if (gangs() == 1) {
                out.add("Unschedulable 0");
            } else {
                return null;
            }
            return outcome(out);
        }

        // ------------------------------------------------------------------------------------------ names

        String unique(String name) {
            String n = name;
            while (!names.add(n)) {
                n = name + "-" + word(2);
            }
            return n;
        }

        private static final String ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";
        /** The API server's alphabet for generateName suffixes. */
        private static final String SUFFIX = "bcdfghjklmnpqrstvwxz2456789";

        String word(int len) {
            StringBuilder sb = new StringBuilder(len);
            sb.append((char) ('a' + rnd.nextInt(26)));
            for (int i = 1; i < len; i++) {
                sb.append(ALNUM.charAt(rnd.nextInt(ALNUM.length())));
            }
            return sb.toString();
        }

        /**
         * {@code prefix} plus 5 random characters, drawn again while the name is taken in {@code scope} (a kind and
         * namespace): the API server's generateName, which retries on a clash.
         */
        String generateName(String scope, String prefix) {
            String n;
            do {
                n = prefix + suffix();
            } while (!names.add(scope + "/" + n));
            return n;
        }

        String suffix() {
            StringBuilder sb = new StringBuilder(5);
            for (int i = 0; i < 5; i++) {
                sb.append(SUFFIX.charAt(rnd.nextInt(SUFFIX.length())));
            }
            return sb.toString();
        }

        String hex(int len) {
            StringBuilder sb = new StringBuilder(len);
            for (int i = 0; i < len; i++) {
                sb.append(Character.forDigit(rnd.nextInt(16), 16));
            }
            return sb.toString();
        }

        String uid() {
            return uuid(rnd);
        }

        static String uuid(SplittableRandom r) {
            long hi = r.nextLong();
            long lo = r.nextLong();
            return new java.util.UUID((hi & ~0xF000L) | 0x4000L, (lo & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L)
                    .toString();
        }

        /**
         * The name the resourceclaim controller gives a claim generated for {@code owner}'s entry: {@code
         * <owner>-<entry>-}, or when that is longer than 57 characters both parts shortened proportionally and joined by
     * one hyphen (as the controller does), then the API server's 5 random characters.
         */
        String claimName(String namespace, String owner, String entry) {
            String base = owner + "-" + entry + "-";
            if (base.length() > 57) {
                int len = base.length();
                base = owner.substring(0, owner.length() * 57 / len) + "-"
                        + entry.substring(0, entry.length() * 57 / len);
            }
            return generateName("resourceclaim/" + namespace, base);
        }
    }
}
