package dev.muster.bench;

import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.snapshot.ClusterSnapshot;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * What a decision keeps alive at each stage, for reading where its young collections cost: {@code LiveSet [shape]}
 * ({@link Probe}'s shape names; {@code plain-pods} by default) decodes the request, compiles it, builds the snapshot
 * and decides, and after each stage prints the heap in use after full collections, above what was in use before the
 * request existed, holding and letting go of each stage's objects as the service does (the body once decoded, the
 * document once compiled). A young collection copies what is alive when it falls: these are the sizes it copies in
 * each stage of a decision. With {@code -Dmuster.bench.histogram=N}, each stage also prints the N classes with the
 * most live instances (the JVM's class histogram, which it takes after a full collection).
 */
public final class LiveSet {
    /** What the stages keep, held here so that the collections see it alive. */
    private static final Object[] HELD = new Object[4];

    public static void main(String[] args) {
        String shape = args.length > 0 ? args[0] : "plain-pods";
        Fixture f = new Fixture();
        long before = used();
        byte[] body = Probe.generate(shape);
        System.out.printf(Locale.ROOT, "%s: %,d bytes; MB alive above the JVM's own (%.1f MB) after each stage:%n",
                shape, body.length, before / 1e6);
        print("the body", before);
        RequestDocument doc = f.decode(body);
        body = null; // the service lets the body go once it is decoded
        HELD[0] = doc;
        print("decoded document (body let go)", before);
        DecisionRequest request = Fixture.compile(doc);
        HELD[1] = request;
        print("document + core request (while compiling)", before);
        HELD[0] = null;
        doc = null;
        print("core request (document let go)", before);
        ClusterSnapshot snapshot = DecisionEngine.compile(request);
        HELD[2] = snapshot;
        print("core request + snapshot", before);
        DecisionResult result = f.engine.decide(snapshot, request.podGroups(), request.pods(), request.options(),
                () -> false);
        HELD[3] = result;
        print("core request + snapshot + result", before);
        System.out.printf(Locale.ROOT, "%,d decisions%n", result.decisions().size());
    }

    private static void print(String what, long before) {
        System.out.printf(Locale.ROOT, "  %-44s %8.1f%n", what, (used() - before) / 1e6);
        int top = Integer.getInteger("muster.bench.histogram", 0);
        if (top > 0) {
            histogram(top);
        }
    }

    /** The first {@code top} rows of the JVM's class histogram ({@code jcmd GC.class_histogram}), from inside. */
    private static void histogram(int top) {
        try {
            Object out = ManagementFactory.getPlatformMBeanServer().invoke(
                    new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {null}, new String[] {String[].class.getName()});
            String[] lines = out.toString().split("\n");
            for (int i = 0; i < Math.min(lines.length, top + 3); i++) {
                System.out.println("      " + lines[i]);
            }
        } catch (javax.management.JMException e) {
            throw new IllegalStateException("class histogram: " + e.getMessage(), e);
        }
    }

    /** Heap in use after full collections. */
    private static long used() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
