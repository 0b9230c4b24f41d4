package dev.muster.bench;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.muster.bench.ShapeFamily.Shape;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The requests of the cluster-choice benchmark ({@code bench/choice.sh}): five different seeded 1,000-node GPU
 * clusters and one 1,000-pod gang, written as {@code POST /v1/cluster-choices} and {@code POST /v1/decisions} bodies
 * and as the snapshot files of watched clusters.
 * <p>
 * Each cluster is a {@link ShapeFamily} cluster at 1,000 nodes (objects as {@code kubectl get -o json} prints them:
 * nodes with 8 GPUs each published by a DRA ResourceSlice, racks of one node type each, two DaemonSet pods per node
 * and bound workload pods at a density drawn per rack) with the family's pending gang taken out; the shape and seed
 * differ per cluster, so do the node types, the racks, the density and the GPUs free:
 * <ul>
 *   <li>{@code c1}: {@code generated}'s cluster (H100 racks), seed {@code seed + 1}</li>
 *   <li>{@code c2}: {@code mixed-models}' (H100, A100 40Gi and L4 24Gi racks), seed {@code seed + 2}</li>
 *   <li>{@code c3}: {@code held}'s (a quarter of the GPUs allocated to bound pods' claims), seed {@code seed + 3}</li>
 *   <li>{@code c4}: {@code generated}'s, seed {@code seed + 4}</li>
 *   <li>{@code c5}: {@code held}'s, seed {@code seed + 5}</li>
 * </ul>
 * The workload is {@code synthesized}'s gang of seed {@code seed}, as it is submitted: a PodGroup
 * ({@code scheduling.k8s.io/v1alpha2}, gang minCount 1,000, rack topology constraint), its 1,000 pending pods
 * (8 CPU / 64Gi, a GPU toleration, a pod claim from the template) and the ResourceClaimTemplate (one GPU with at
 * least 40Gi, CEL), no claims generated yet.
 * <p>
 * Files written to {@code DIR} (default {@code target/bench-requests/choice}):
 * <ul>
 *   <li>{@code clusters/c1.json} .. {@code c5.json}: each cluster's {@code snapshot} object (the file a watched
 *       cluster {@code muster.clusters.cN.file} reads)</li>
 *   <li>{@code choice-inline.json}: one choice with the five snapshots inline</li>
 *   <li>{@code decision-cN.json}: {@code /v1/decisions} on cluster N's snapshot with the workload's objects added
 *       (after the cluster's, as a choice adds them) and {@code podGroups} naming the gang</li>
 *   <li>{@code choice-watched.json}: one choice naming the five watched clusters; {@code choice-watched-cN.json}:
 *       naming cluster N alone</li>
 *   <li>{@code choice-2m.json}: a choice of just over 2 MiB (one inline cluster, c1's first nodes), for a server
 *       started with a small body limit</li>
 *   <li>{@code choice-over-limit.json}: an inline choice whose snapshots (the five, then copies under other names)
 *       pass 128 MiB, the default body limit; {@code choice-under-limit.json}: as many as stay under it</li>
 * </ul>
 * {@code java -cp "$(source bench/common.sh; bench_classpath)" dev.muster.bench.ChoiceClusters [DIR] [seed]}
 */
public final class ChoiceClusters {
    static final int NODES = 1_000;
    static final int GANG = 1_000;
    static final int CLUSTERS = 5;
    static final long OVER_LIMIT = 128L << 20;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Shape[] SHAPES = {Shape.GENERATED, Shape.MIXED_MODELS, Shape.HELD, Shape.GENERATED,
            Shape.HELD};
    /** Snapshot lists that hold the workload's objects (namespace {@link FamilyObjects#NS}). */
    private static final String[] WORKLOAD_LISTS = {"pods", "podGroups", "resourceClaims", "resourceClaimTemplates"};

    private ChoiceClusters() {
    }

    /** Cluster i's snapshot object (0-based), without the family's pending gang. */
    static ObjectNode cluster(int i, long seed) throws IOException {
        ShapeFamily.Generated g = ShapeFamily.build(SHAPES[i], seed + 1 + i, new ShapeFamily.Scale(NODES, GANG));
        ObjectNode snapshot = (ObjectNode) JSON.readTree(g.body()).get("snapshot");
        for (String list : WORKLOAD_LISTS) {
            split(snapshot, list);
        }
        if (snapshot.has("podGroups") && snapshot.get("podGroups").isEmpty()) {
            snapshot.remove("podGroups");
        }
        return snapshot;
    }

    /** The workload: {@code synthesized}'s PodGroup, pods and claim template of seed {@code seed}. */
    static ObjectNode workload(long seed) throws IOException {
        ShapeFamily.Generated g = ShapeFamily.build(Shape.SYNTHESIZED, seed, new ShapeFamily.Scale(NODES, GANG));
        ObjectNode snapshot = (ObjectNode) JSON.readTree(g.body()).get("snapshot");
        ObjectNode w = JSON.createObjectNode();
        for (String list : WORKLOAD_LISTS) {
            ArrayNode kept = split(snapshot, list);
            if (!kept.isEmpty()) {
                w.set(list, kept);
            }
        }
        return w;
    }

    /** Takes the objects of the workload's namespace out of {@code snapshot.list} and returns them. */
    private static ArrayNode split(ObjectNode snapshot, String list) {
        ArrayNode out = JSON.createArrayNode();
        JsonNode items = snapshot.get(list);
        if (items == null) {
            return out;
        }
        ArrayNode rest = JSON.createArrayNode();
        for (JsonNode o : items) {
            (FamilyObjects.NS.equals(o.path("metadata").path("namespace").asText()) ? out : rest).add(o);
        }
        snapshot.set(list, rest);
        return out;
    }

    static String group(ObjectNode workload) {
        JsonNode pg = workload.get("podGroups").get(0).get("metadata");
        return pg.get("namespace").asText() + "/" + pg.get("name").asText();
    }

    /** Cluster's snapshot with the workload's lists appended after the cluster's own. */
    static ObjectNode merged(ObjectNode cluster, ObjectNode workload) {
        ObjectNode m = cluster.deepCopy();
        for (Iterator<Map.Entry<String, JsonNode>> it = workload.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ArrayNode a = m.has(e.getKey()) ? (ArrayNode) m.get(e.getKey()) : m.putArray(e.getKey());
            a.addAll((ArrayNode) e.getValue());
        }
        return m;
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/bench-requests/choice");
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        Files.createDirectories(dir.resolve("clusters"));
        ObjectNode workload = workload(seed);
        String group = group(workload);
        ObjectNode options = JSON.createObjectNode().put("preemption", true);
        List<ObjectNode> clusters = new ArrayList<>();
        for (int i = 0; i < CLUSTERS; i++) {
            ObjectNode c = cluster(i, seed);
            clusters.add(c);
            String name = "c" + (i + 1);
            write(dir.resolve("clusters/" + name + ".json"), c);
            ObjectNode decision = JSON.createObjectNode();
            decision.set("snapshot", merged(c, workload));
            decision.putArray("podGroups").add(group);
            decision.set("options", options);
            write(dir.resolve("decision-" + name + ".json"), decision);
            ObjectNode single = JSON.createObjectNode();
            single.putArray("clusters").addObject().put("name", name);
            single.set("workload", workload);
            single.set("options", options);
            write(dir.resolve("choice-watched-" + name + ".json"), single);
            System.out.printf("%s: %s seed %d, %d nodes, %d pods, %,d bytes%n", name, SHAPES[i].id, seed + 1 + i,
                    c.get("nodes").size(), c.get("pods").size(), Files.size(dir.resolve("clusters/" + name + ".json")));
        }
        ObjectNode watched = JSON.createObjectNode();
        ArrayNode names = watched.putArray("clusters");
        for (int i = 0; i < CLUSTERS; i++) {
            names.addObject().put("name", "c" + (i + 1));
        }
        watched.set("workload", workload);
        watched.set("options", options);
        write(dir.resolve("choice-watched.json"), watched);
        long small = small(dir.resolve("choice-2m.json"), clusters.get(0), workload, options, 2L << 20);
        long inline = inline(dir.resolve("choice-inline.json"), clusters, workload, options, 0);
        long over = inline(dir.resolve("choice-over-limit.json"), clusters, workload, options, OVER_LIMIT);
        long under = underLimit(dir.resolve("choice-under-limit.json"), clusters, workload, options);
        System.out.printf("workload %s: %d pods; choice-inline %,d bytes, choice-watched %,d bytes, "
                        + "choice-over-limit %,d bytes, choice-under-limit %,d bytes, choice-2m %,d bytes%n", group,
                workload.get("pods").size(), inline, Files.size(dir.resolve("choice-watched.json")), over, under,
                small);
    }

    /**
     * An inline choice of the five clusters; with {@code atLeast} > 0, the five again (as c6, c7, ...) until the
     * clusters written pass that many bytes.
     */
    private static long inline(Path file, List<ObjectNode> clusters, ObjectNode workload, ObjectNode options,
                               long atLeast) throws IOException {
        try (OutputStream out = Files.newOutputStream(file);
             JsonGenerator g = JSON.getFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.setCodec(JSON);
            g.writeStartObject();
            g.writeArrayFieldStart("clusters");
            long written = 0;
            for (int n = 0; n < clusters.size() || (atLeast > 0 && written <= atLeast); n++) {
                g.writeStartObject();
                g.writeStringField("name", "c" + (n + 1));
                g.writeFieldName("snapshot");
                g.writeTree(clusters.get(n % clusters.size()));
                g.writeEndObject();
                g.flush();
                written = Files.size(file);
            }
            g.writeEndArray();
            g.writeFieldName("workload");
            g.writeTree(workload);
            g.writeFieldName("options");
            g.writeTree(options);
            g.writeEndObject();
        }
        return Files.size(file);
    }

    /** The most clusters (the five, then copies as c6, c7, ...) whose inline choice stays under 128 MiB. */
    private static long underLimit(Path file, List<ObjectNode> clusters, ObjectNode workload, ObjectNode options)
            throws IOException {
        long fixed = JSON.writeValueAsBytes(workload).length + 200;
        long[] sizes = new long[clusters.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = JSON.writeValueAsBytes(clusters.get(i)).length + 40;
        }
        List<ObjectNode> fit = new ArrayList<>();
        for (long total = fixed; total + sizes[fit.size() % sizes.length] < OVER_LIMIT; ) {
            total += sizes[fit.size() % sizes.length];
            fit.add(clusters.get(fit.size() % sizes.length));
        }
        return inline(file, fit, workload, options, 0);
    }

    /** A choice with one inline cluster, the first nodes of {@code cluster}, just over {@code atLeast} bytes. */
    private static long small(Path file, ObjectNode cluster, ObjectNode workload, ObjectNode options, long atLeast)
            throws IOException {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode nodes = body.putArray("clusters").addObject().put("name", "c1").putObject("snapshot")
                .putArray("nodes");
        body.set("workload", workload);
        body.set("options", options);
        long size = JSON.writeValueAsBytes(body).length;
        for (JsonNode n : cluster.get("nodes")) {
            if (size > atLeast) {
                break;
            }
            nodes.add(n);
            size += JSON.writeValueAsBytes(n).length + 1;
        }
        write(file, body);
        return Files.size(file);
    }

    private static void write(Path file, JsonNode node) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            JSON.writeValue(out, node);
        }
    }
}
