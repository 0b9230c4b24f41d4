package dev.muster.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * The tokenizing floor of a request file, for bench/e2e.sh: {@code Floor <file> [rounds] [warmup]} reads the file
 * once, tokenizes it {@code warmup} times untimed, then {@code rounds} times, and prints one line
 * {@code floor_ms <median> <min> <max>}.
 */
public final class Floor {
    public static void main(String[] args) throws IOException {
        byte[] body = Files.readAllBytes(Path.of(args[0]));
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        for (int i = 0; i < warmup; i++) {
            Fixture.tokenize(body);
        }
        double[] ms = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            long t = System.nanoTime();
            Fixture.tokenize(body);
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        System.out.printf(Locale.ROOT, "floor_ms %.1f %.1f %.1f%n", ms[rounds / 2], ms[0], ms[rounds - 1]);
    }
}
