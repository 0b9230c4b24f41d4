package dev.muster.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.decision.DecisionRequest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Reading one request written in each gang API shape: the generated request with every PodGroup and every member
 * rewritten into {@code api} ({@code v1alpha2} is the request as generated). {@code read} is decode + validate
 * (/v1/validations minus HTTP), {@code compile} the mapping into the core model. The other shapes should cost what
 * v1alpha2 costs (within 1.1x). {@code volcano-tasks} is the Volcano shape with {@code minTaskMember} and every member's
 * task annotation (per-role minimums: each member's role is looked up while it is mapped).
 * <p>
 * {@link #main} measures read + compile of every shape in alternating rounds (each round visits the shapes in another
 * order, every other round reversed, so drift in the machine's load falls on all shapes alike) and prints, per
 * shape, the median and p90 of its time (the best of the round's ops, each after a GC, so that another process
 * taking the cores for a moment does not count) and of its ratio to v1alpha2 in the same round:
 * {@code java -cp <bench classpath> dev.muster.bench.GangShapeBench [rounds] [shape] [ops per round]}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class GangShapeBench {
    @Param({"gang-10x5000"})
    public String shape;

    @Param({"v1alpha2", "v1beta1", "volcano", "volcano-tasks", "coscheduling", "v1alpha1"})
    public String api;

    /** The shapes {@link #main} compares, v1alpha2 (the reference) first. */
    static final List<String> APIS = List.of("v1alpha2", "v1beta1", "volcano", "volcano-tasks", "coscheduling",
            "v1alpha1");

    private Fixture fixture;
    private byte[] body;
    private RequestDocument doc;

    @Setup(Level.Trial)
    public void setUp() {
        fixture = new Fixture();
        body = rewrite(RequestGenerator.generate(shape), api);
        doc = fixture.read(body);
    }

    @Benchmark
    public RequestDocument read() {
        return fixture.read(body);
    }

    @Benchmark
    public DecisionRequest compile() {
        return Fixture.compile(doc);
    }

    /** The request with its PodGroups and members in another shape (same groups, same minimums). */
    static byte[] rewrite(byte[] body, String api) {
        if (api.equals("v1alpha2")) {
            return body;
        }
        ObjectMapper m = new ObjectMapper();
        try {
            ObjectNode root = (ObjectNode) m.readTree(body);
            ObjectNode snap = (ObjectNode) root.get("snapshot");
            ArrayNode groups = (ArrayNode) snap.get("podGroups");
            ArrayNode workloads = m.createArrayNode();
            for (JsonNode g : groups) {
                ObjectNode spec = (ObjectNode) g.get("spec");
                JsonNode gang = spec.path("schedulingPolicy").path("gang").path("minCount");
                int min = gang.isMissingNode() ? 0 : gang.asInt();
                switch (api) {
                    case "v1beta1" -> {
                        ((ObjectNode) g).put("apiVersion", "scheduling.k8s.io/v1beta1");
                        if (spec.has("disruptionMode")) {
                            spec.set("disruptionMode", m.createObjectNode().set(
                                    "PodGroup".equals(spec.get("disruptionMode").asText()) ? "all" : "single",
                                    m.createObjectNode()));
                        }
                    }
                    case "volcano", "volcano-tasks", "coscheduling" -> {
                        ((ObjectNode) g).put("apiVersion", api.startsWith("volcano") ? "scheduling.volcano.sh/v1beta1"
                                : "scheduling.x-k8s.io/v1alpha1");
                        ObjectNode s = m.createObjectNode().put("minMember", min);
                        if (api.equals("volcano-tasks") && min > 0) {
                            s.set("minTaskMember", m.createObjectNode().put("worker", min));
                        }
                        ((ObjectNode) g).set("spec", s);
                    }
                    case "v1alpha1" -> {
                        ObjectNode w = m.createObjectNode().put("apiVersion", "scheduling.k8s.io/v1alpha1")
                                .put("kind", "Workload");
                        w.set("metadata", g.get("metadata"));
                        ObjectNode pg = m.createObjectNode().put("name", "workers");
                        pg.set("policy", spec.get("schedulingPolicy"));
                        w.set("spec", m.createObjectNode().set("podGroups", m.createArrayNode().add(pg)));
                        workloads.add(w);
                    }
                    default -> throw new IllegalArgumentException(api);
                }
            }
            if (api.equals("v1alpha1")) {
                snap.remove("podGroups");
                snap.set("workloads", workloads);
            }
            for (JsonNode p : snap.get("pods")) {
                ObjectNode spec = (ObjectNode) p.get("spec");
                JsonNode sg = spec.get("schedulingGroup");
                if (sg == null || api.equals("v1beta1")) {
                    continue;
                }
                String name = sg.get("podGroupName").asText();
                spec.remove("schedulingGroup");
                ObjectNode meta = (ObjectNode) p.get("metadata");
                switch (api) {
                    case "volcano" -> meta.with("annotations").put("scheduling.k8s.io/group-name", name);
                    case "volcano-tasks" -> meta.with("annotations").put("scheduling.k8s.io/group-name", name)
                            .put("volcano.sh/task-spec", "worker");
                    case "coscheduling" -> meta.with("labels").put("scheduling.x-k8s.io/pod-group", name);
                    default -> spec.set("workloadRef", m.createObjectNode().put("name", name).put("podGroup", "workers"));
                }
            }
            if (root.has("podGroups") && api.equals("v1alpha1")) {
                ArrayNode names = m.createArrayNode();
                for (JsonNode n : root.get("podGroups")) {
                    names.add(n.asText() + "/workers");
                }
                root.set("podGroups", names);
            }
            return m.writeValueAsBytes(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Alternating rounds of read + compile per shape; prints per shape the median and p90 time and ratio to v1alpha2.
     * The first two rounds warm the JIT and are not counted.
     */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        String shape = args.length > 1 ? args[1] : "gang-10x5000";
        int ops = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int warm = 2;
        Fixture fixture = new Fixture();
        byte[] generated = RequestGenerator.generate(shape);
        Map<String, byte[]> bodies = new LinkedHashMap<>();
        for (String api : APIS) {
            bodies.put(api, rewrite(generated, api));
        }
        Map<String, List<Double>> millis = new LinkedHashMap<>();
        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        for (String api : APIS) {
            millis.put(api, new ArrayList<>());
            ratios.put(api, new ArrayList<>());
        }
        long sink = 0;
        for (int r = 0; r < warm + rounds; r++) {
            List<String> order = new ArrayList<>(APIS);
            java.util.Collections.rotate(order, r);
            if (r % 2 == 1) {
                java.util.Collections.reverse(order);
            }
            Map<String, Double> round = new LinkedHashMap<>();
            for (String api : order) {
                byte[] body = bodies.get(api);
                long best = Long.MAX_VALUE;
                for (int i = 0; i < ops; i++) {
                    System.gc();
                    long start = System.nanoTime();
                    sink += Fixture.compile(fixture.read(body)).cluster().pods().size();
                    best = Math.min(best, System.nanoTime() - start);
                }
                round.put(api, best / 1e6);
            }
            if (r < warm) {
                continue;
            }
            double reference = round.get("v1alpha2");
            for (String api : APIS) {
                millis.get(api).add(round.get(api));
                ratios.get(api).add(round.get(api) / reference);
            }
        }
        System.out.printf("GangShapeBench %s: read + compile, %d rounds after %d warm-up, best of %d ops per shape and round"
                + " (pods seen: %d)%n", shape, rounds, warm, ops, sink);
        System.out.printf("%-14s %10s %12s %12s %14s %14s%n", "shape", "body MB", "median ms", "p90 ms",
                "median ratio", "p90 ratio");
        for (String api : APIS) {
            System.out.printf("%-14s %10.2f %12.1f %12.1f %14.3f %14.3f%n", api, bodies.get(api).length / 1e6,
                    percentile(millis.get(api), 50),
                    percentile(millis.get(api), 90), percentile(ratios.get(api), 50), percentile(ratios.get(api), 90));
        }
    }

    /** The nearest-rank percentile (the median of an even count: the mean of the two middle values). */
    static double percentile(List<Double> values, int p) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        if (p == 50 && v.length % 2 == 0) {
            return (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
        }
        int rank = (int) Math.ceil(p / 100.0 * v.length);
        return v[Math.max(0, rank - 1)];
    }
}
