package dev.muster.bench;

import dev.muster.adapter.kube.RequestDocument;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@code StageProbe <shape> [rounds]}: decodes the shape once, then alternates tokenize (the floor), validate and
 * compile in one JVM, {@code rounds} times each, and prints medians, minimums and each median's ratio to the
 * floor's. Alternating keeps the machine's load (shared cores) about the same for the three stages, so the ratios
 * are more trustworthy than absolute times. Thread CPU times are printed too (less sensitive to a loaded machine,
 * blind to GC work done on other threads).
 */
public final class StageProbe {
    public static void main(String[] args) {
        String shape = args.length > 0 ? args[0] : "large";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int warm = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Fixture f = new Fixture();
        byte[] body = RequestGenerator.generate(shape);
        RequestDocument doc = f.read(body);
        long[] tok = new long[rounds];
        long[] val = new long[rounds];
        long[] comp = new long[rounds];
        long[] tokCpu = new long[rounds];
        long[] valCpu = new long[rounds];
        long[] compCpu = new long[rounds];
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (int i = -warm; i < rounds; i++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            sink += Fixture.tokenize(body);
            long t1 = System.nanoTime();
            long c1 = threads.getCurrentThreadCpuTime();
            sink += f.validate(doc).total();
            long t2 = System.nanoTime();
            long c2 = threads.getCurrentThreadCpuTime();
            sink += Fixture.compile(doc).cluster().pods().size();
            long t3 = System.nanoTime();
            long c3 = threads.getCurrentThreadCpuTime();
            if (i >= 0) {
                tok[i] = t1 - t0;
                val[i] = t2 - t1;
                comp[i] = t3 - t2;
                tokCpu[i] = c1 - c0;
                valCpu[i] = c2 - c1;
                compCpu[i] = c3 - c2;
            }
        }
        double floor = median(tok);
        System.out.printf(Locale.ROOT, "%s, %d rounds after %d warm-up (sink %d)%n", shape, rounds, warm, sink);
        print("tokenize", tok, floor);
        print("validate", val, floor);
        print("compile", comp, floor);
        System.out.printf(Locale.ROOT, "compile/validate %.2f%n", median(comp) / median(val));
        double cpuFloor = median(tokCpu);
        System.out.println("thread CPU time (this thread only; GC threads excluded):");
        print("tokenize", tokCpu, cpuFloor);
        print("validate", valCpu, cpuFloor);
        print("compile", compCpu, cpuFloor);
    }

    private static void print(String name, long[] ns, double floor) {
        double m = median(ns);
        long[] s = ns.clone();
        Arrays.sort(s);
        System.out.printf(Locale.ROOT, "%-8s median %7.1f ms  min %7.1f ms  max %7.1f ms  %.3f x floor%n", name,
                m / 1e6, s[0] / 1e6, s[s.length - 1] / 1e6, m / floor);
    }

    private static double median(long[] ns) {
        long[] s = ns.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
    }
}
