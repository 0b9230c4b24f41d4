package dev.muster.bench;

import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Runs one benchmark class against two builds in one JVM ({@link StagePairs}, {@link DecisionPairs}): each build gets
 * its own class loader (its {@code target/classes}, then this build's benchmark classes and the same dependencies),
 * and the rounds alternate which build goes first, so the host's slow spells hit both alike. The first loader tends
 * to run a few per cent faster: compare both orders.
 */
final class BuildPairs {
    private BuildPairs() {
    }

    /**
     * Each build's {@code runner} ({@code runner.get()}: one round's measurements); this build's classes first.
     *
     * @param runner a public class with a public no-argument constructor implementing {@code Supplier<long[]>}
     * @param other  the other build's {@code target/classes}
     */
    static List<Supplier<long[]>> load(Class<?> runner, Path other) throws Exception {
        String[] classpath = System.getProperty("java.class.path").split(java.io.File.pathSeparator);
        Path own = Path.of(runner.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path ownMain = own.resolveSibling("classes");
        List<Supplier<long[]>> builds = new ArrayList<>();
        for (Path main : List.of(ownMain, other.toAbsolutePath())) {
            List<URL> urls = new ArrayList<>();
            urls.add(main.toUri().toURL());
            for (String entry : classpath) {
                Path p = Path.of(entry).toAbsolutePath();
                if (!p.equals(ownMain)) {
                    urls.add(p.toUri().toURL());
                }
            }
            ClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
            Object instance = loader.loadClass(runner.getName()).getConstructor().newInstance();
            Method get = instance.getClass().getMethod("get");
            builds.add(() -> {
                try {
                    return (long[]) get.invoke(instance);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        return builds;
    }

    /** This build's {@code target/classes}, as {@link #load} uses it. */
    static Path ownClasses(Class<?> runner) throws Exception {
        return Path.of(runner.getProtectionDomain().getCodeSource().getLocation().toURI()).resolveSibling("classes");
    }

    /**
     * {@code rounds} measured rounds after {@code warm} unmeasured ones, each build once per round, who goes first
     * alternating: {@code [build][round]} → that round's measurements.
     */
    static long[][][] alternate(List<Supplier<long[]>> builds, int rounds, int warm) {
        long[][][] times = new long[2][rounds][];
        for (int r = -warm; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                int b = (r & 1) == 0 ? k : 1 - k;
                long[] t = builds.get(b).get();
                if (r >= 0) {
                    times[b][r] = t;
                }
            }
        }
        return times;
    }
}
