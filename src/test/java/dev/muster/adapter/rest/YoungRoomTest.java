package dev.muster.adapter.rest;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A young collection is brought forward only where it would fall inside the request, and only with collectors whose
 * young collections an eden allocation triggers. Each collector runs in a JVM of its own ({@link Probe}), which
 * reports what {@link YoungRoom} did and what the collector counted.
 */
class YoungRoomTest {
    @Test
    void factorZeroNeverCollects() {
        YoungRoom off = YoungRoom.of(0);
        assertFalse(off.active());
        assertFalse(off.beforeBody(64L << 20));
    }

    @Test
    void parallelCollectorCollectsWhenTheEdenCannotHoldTheRequest() throws Exception {
        assertEquals("active true; short true +1; ample false +0; small false +0",
                probe("-XX:+UseParallelGC", "-XX:-UseAdaptiveSizePolicy"));
    }

    @Test
    void serialCollectorCollectsWhenTheEdenCannotHoldTheRequest() throws Exception {
        assertEquals("active true; short true +1; ample false +0; small false +0", probe("-XX:+UseSerialGC"));
    }

    @Test
    void g1IsLeftAlone() throws Exception {
        assertEquals("active false; short false +0; ample false +0; small false +0", probe("-XX:+UseG1GC"));
    }

    private static String probe(String... gc) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(gc));
        cmd.addAll(List.of("-Xmx256m", "-Xmn64m", "-XX:SurvivorRatio=6",
                "-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe JVM did not end");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /**
     * In a JVM of its own: the eden filled to about 70 % with garbage, then a 8 MB body (24 MB expected) asks for a
     * collection; right after it, the same body finds room; a body under {@link YoungRoom#MIN_BODY} is never looked at.
     */
    public static final class Probe {
        static volatile Object keep;

        public static void main(String[] args) {
            YoungRoom room = YoungRoom.of(3);
            StringBuilder out = new StringBuilder("active " + room.active());
            System.gc();
            fill(0.7);
            long before = youngCollections();
            out.append("; short ").append(room.beforeBody(8L << 20))
                    .append(" +").append(youngCollections() - before);
            before = youngCollections();
            out.append("; ample ").append(room.beforeBody(8L << 20))
                    .append(" +").append(youngCollections() - before);
            fill(0.7);
            before = youngCollections();
            out.append("; small ").append(room.beforeBody(YoungRoom.MIN_BODY - 1))
                    .append(" +").append(youngCollections() - before);
            System.out.println(out);
        }

        /** Garbage until about {@code share} of a 48 MB eden is used (1 MB arrays, each dropped). */
        private static void fill(double share) {
            for (int i = 0; i < (int) (48 * share); i++) {
                keep = new byte[1 << 20];
            }
            keep = null;
        }

        /** Collections by the young collector ("PS Scavenge", "Copy", "G1 Young Generation"). */
        private static long youngCollections() {
            long n = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                String name = gc.getName();
                if (name.equals("PS Scavenge") || name.equals("Copy") || name.equals("G1 Young Generation")) {
                    n += gc.getCollectionCount();
                }
            }
            return n;
        }
    }
}
