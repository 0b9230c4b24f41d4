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
import java.util.concurrent.TimeUnit;

/**
 * Reading one request written in each gang API shape: the generated request with every PodGroup and every member
 * rewritten into {@code api} ({@code v1alpha2} is the request as generated). {@code read} is decode + validate
 * (/v1/validations minus HTTP), {@code compile} the mapping into the core model. The other shapes should cost what
 * v1alpha2 costs (within 1.1x).
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

    @Param({"v1alpha2", "v1beta1", "volcano", "coscheduling", "v1alpha1"})
    public String api;

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
                    case "volcano", "coscheduling" -> {
                        ((ObjectNode) g).put("apiVersion", api.equals("volcano") ? "scheduling.volcano.sh/v1beta1"
                                : "scheduling.x-k8s.io/v1alpha1");
                        ObjectNode s = m.createObjectNode().put("minMember", min);
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
}
