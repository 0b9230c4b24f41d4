package dev.muster.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * Decode against its floor in one JVM: {@code DecodeRatio [shape] [rounds] [warmup]} generates the request,
 * warms both up, then alternates tokenize and decode {@code rounds} times (so load from other processes hits
 * both alike) and prints each median, the ratio decode/tokenize and the GC time spent inside the decodes.
 */
public final class DecodeRatio {
    public static void main(String[] args) {
        String shape = args.length > 0 ? args[0] : "large";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Fixture f = new Fixture();
        byte[] body = RequestGenerator.generate(shape);
        for (int i = 0; i < warmup; i++) {
            Fixture.tokenize(body);
            f.decode(body);
        }
        long[] tok = new long[rounds];
        long[] dec = new long[rounds];
        long[] gc = new long[rounds];
        long[] tokCpu = new long[rounds];
        long[] decCpu = new long[rounds];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Object keep = null;
        for (int i = 0; i < rounds; i++) {
            keep = null; // the previous document becomes garbage, as between two requests
            long c = threads.getCurrentThreadCpuTime();
            long s = System.nanoTime();
            Fixture.tokenize(body);
            tok[i] = System.nanoTime() - s;
            tokCpu[i] = threads.getCurrentThreadCpuTime() - c;
            long g0 = gcMillis();
            c = threads.getCurrentThreadCpuTime();
            s = System.nanoTime();
            keep = f.decode(body);
            dec[i] = System.nanoTime() - s;
            decCpu[i] = threads.getCurrentThreadCpuTime() - c;
            gc[i] = gcMillis() - g0;
        }
        if (keep == null) {
            throw new IllegalStateException();
        }
        double t = median(tok) / 1e6;
        double d = median(dec) / 1e6;
        System.out.printf(Locale.ROOT, "%s x%d: tokenize median %.1f ms, decode median %.1f ms, decode/tokenize %.2f"
                + " (gc in decode median %d ms; per-round ratios %s)%n", shape, rounds, t, d, d / t, median(gc), ratios(tok, dec));
        com.sun.management.ThreadMXBean alloc = (com.sun.management.ThreadMXBean) threads;
        long a0 = alloc.getCurrentThreadAllocatedBytes();
        keep = f.decode(body);
        long allocated = alloc.getCurrentThreadAllocatedBytes() - a0;
        double tc = median(tokCpu) / 1e6;
        double dc = median(decCpu) / 1e6;
        // CPU time of the decoding thread alone: robust to other processes' load, but leaves out GC threads' work
        System.out.printf(Locale.ROOT, "thread CPU: tokenize median %.1f ms, decode median %.1f ms, decode/tokenize %.2f;"
                + " one decode allocates %.1f MB%n", tc, dc, dc / tc, allocated / 1e6);
    }

    private static String ratios(long[] tok, long[] dec) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < tok.length; i++) {
            sb.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.2f", (double) dec[i] / tok[i]));
        }
        return sb.toString();
    }

    private static long median(long[] a) {
        long[] c = a.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    private static long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, b.getCollectionTime());
        }
        return sum;
    }
}
