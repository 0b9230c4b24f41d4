package dev.muster.bench;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
public final class RequestGenerator extends KubeWriter {
    public static final long SEED = 20260422L;
    static final String RACK = "topology.kubernetes.io/rack";
    static final String ZONE = "topology.kubernetes.io/zone";
    static final String HOSTNAME = "kubernetes.io/hostname";
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

    private RequestGenerator(JsonGenerator g, long seed) {
        super(g, new SplittableRandom(seed));
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
            case LARGE, HETERO -> new RealisticCluster(g, rnd).realistic(shape == Shape.HETERO);
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

}
