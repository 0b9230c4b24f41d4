package dev.muster.adapter.kube;

import dev.muster.bench.Fixture;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The two JSON decoding paths of {@link KubeCodec} and the tokenizing floor on the same bytes, alternating in one JVM,
 * thread-CPU medians: {@code DecodePaths <file> [rounds] [repeats per round]} (in this package for the codec's
 * package-private paths). Also prints how often the byte path recalled a repeated sub-object, per site.
 */
public final class DecodePaths {
    public static void main(String[] args) throws Exception {
        byte[] body = Files.readAllBytes(Path.of(args[0]));
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] bytes = new double[rounds];
        double[] jackson = new double[rounds];
        double[] floor = new double[rounds];
        for (int r = -3; r < rounds; r++) {
            long t0 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < repeats; i++) {
                if (codec.readBytes(body) == null) {
                    throw new IllegalStateException("the byte path left this request to Jackson");
                }
            }
            long t1 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < repeats; i++) {
                codec.readJackson(body);
            }
            long t2 = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < repeats; i++) {
                Fixture.tokenizeCount(body);
            }
            long t3 = threads.getCurrentThreadCpuTime();
            if (r >= 0) {
                bytes[r] = (t1 - t0) / 1e6 / repeats;
                jackson[r] = (t2 - t1) / 1e6 / repeats;
                floor[r] = (t3 - t2) / 1e6 / repeats;
            }
        }
        Arrays.sort(bytes);
        Arrays.sort(jackson);
        Arrays.sort(floor);
        double b = bytes[rounds / 2];
        double f = floor[rounds / 2];
        System.out.printf(Locale.ROOT, "%,d bytes, %d rounds x %d; thread CPU medians per decode:%n", body.length, rounds,
                repeats);
        System.out.printf(Locale.ROOT, "byte path %.3f ms, Jackson path %.3f ms, tokenizing floor %.3f ms; "
                + "byte path / floor %.2f%n", b, jackson[rounds / 2], f, b / f);
        ByteTokens tokens = codec.tokens(body);
        new StreamingDecoders.Reader(tokens).document();
        System.out.println("recalls (tolerations, containers, affinity, node quantities, taints): "
                + Arrays.toString(tokens.recalls()) + ", misses " + Arrays.toString(tokens.misses()));
    }
}
