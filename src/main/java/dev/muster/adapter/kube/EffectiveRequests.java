package dev.muster.adapter.kube;

import dev.muster.core.model.Quantity;
import dev.muster.core.model.ResourceList;

import java.util.List;
import java.util.Map;

/**
 * A pod's effective requests, computed as kube-scheduler does ({@code resourcehelper.PodRequests}):
 * <ol>
 *   <li>per container and resource, the request, or the limit when only a limit is set (what API defaulting does);</li>
 *   <li>regular containers and sidecars (init containers with {@code restartPolicy: Always}) add up;</li>
 *   <li>each other init container needs its own request plus the sidecars declared before it; the pod needs the
 *       maximum of that and step 2, per resource;</li>
 *   <li>pod-level {@code spec.resources} (requests, else limits) replace the result for cpu and memory where set;</li>
 *   <li>{@code spec.overhead} is added.</li>
 * </ol>
 * Sums are exact: cpu is accumulated in nanocores and everything else in milli-units, and rounded up once at the
 * end (cpu to millicores, the rest to whole units), so splitting a request over containers never changes it.
 * Expects validated input: every quantity parses.
 */
public final class EffectiveRequests {
    private static final long NANOS_PER_MILLI = 1_000_000L;
    private static final long MILLIS_PER_UNIT = 1_000L;

    private EffectiveRequests() {
    }

    public static ResourceList of(Kube.PodSpec spec) {
        if (spec == null) {
            return ResourceList.EMPTY;
        }
        Acc total = new Acc();
        if (spec.containers() != null) {
            for (Kube.Container c : spec.containers()) {
                addContainer(total, c);
            }
        }
        List<Kube.Container> inits = spec.initContainers();
        if (inits != null && !inits.isEmpty()) {
            Acc sidecars = new Acc();
            Acc initMax = new Acc();
            for (Kube.Container ic : inits) {
                Acc own = new Acc();
                addContainer(own, ic);
                if (ic.isSidecar()) {
                    total.addAll(own);
                    sidecars.addAll(own);
                } else {
                    own.addAll(sidecars);
                    initMax.maxAll(own);
                }
            }
            total.maxAll(initMax);
        }
        Kube.Resources podLevel = spec.resources();
        if (podLevel != null) {
            podLevelOverride(total, podLevel, ResourceList.CPU);
            podLevelOverride(total, podLevel, ResourceList.MEMORY);
        }
        if (spec.overhead() != null) {
            for (Map.Entry<String, Qty> e : spec.overhead().entrySet()) {
                total.add(e.getKey(), fine(e.getKey(), e.getValue()));
            }
        }
        return total.toResourceList();
    }

    private static void podLevelOverride(Acc total, Kube.Resources podLevel, String name) {
        Qty q = podLevel.requests() == null ? null : podLevel.requests().get(name);
        if (q == null && podLevel.limits() != null) {
            q = podLevel.limits().get(name);
        }
        if (q != null) {
            total.set(name, fine(name, q));
        }
    }

    private static void addContainer(Acc acc, Kube.Container c) {
        Kube.Resources r = c.resources();
        if (r == null) {
            return;
        }
        Map<String, Qty> requests = r.requests();
        if (requests != null) {
            for (Map.Entry<String, Qty> e : requests.entrySet()) {
                acc.add(e.getKey(), fine(e.getKey(), e.getValue()));
            }
        }
        if (r.limits() != null) {
            for (Map.Entry<String, Qty> e : r.limits().entrySet()) {
                if (requests == null || !requests.containsKey(e.getKey())) {
                    acc.add(e.getKey(), fine(e.getKey(), e.getValue()));
                }
            }
        }
    }

    /** The quantity in accumulation units: nanocores for cpu, milli-units for the rest. */
    private static long fine(String name, Qty q) {
        return Quantity.scaledCeil(q.text(), ResourceList.CPU.equals(name) ? 9 : 3);
    }

    /** Converts an allocatable/capacity map: cpu in millicores, the rest in whole units, rounded up. */
    public static ResourceList ofAmounts(Map<String, Qty> amounts) {
        if (amounts == null || amounts.isEmpty()) {
            return ResourceList.EMPTY;
        }
        int size = amounts.size();
        String[] names = new String[size];
        long[] values = new long[size];
        int i = 0;
        for (Map.Entry<String, Qty> e : amounts.entrySet()) {
            String name = e.getKey();
            names[i] = name;
            values[i++] = ResourceList.CPU.equals(name) ? Quantity.milliValue(e.getValue().text())
                    : Quantity.value(e.getValue().text());
        }
        return ResourceList.of(names, values, i);
    }

    /** A tiny resource-name → amount accumulator: pods name a handful of resources, so a linear scan wins. */
    private static final class Acc {
        private String[] names = new String[4];
        private long[] values = new long[4];
        private int size;

        private int indexOf(String name) {
            for (int i = 0; i < size; i++) {
                if (names[i].equals(name)) {
                    return i;
                }
            }
            return -1;
        }

        private int slot(String name) {
            int i = indexOf(name);
            if (i >= 0) {
                return i;
            }
            if (size == names.length) {
                names = java.util.Arrays.copyOf(names, size * 2);
                values = java.util.Arrays.copyOf(values, size * 2);
            }
            names[size] = name;
            values[size] = 0;
            return size++;
        }

        void add(String name, long v) {
            int i = slot(name);
            long s = values[i] + v;
            values[i] = ((values[i] ^ s) & (v ^ s)) < 0 ? Long.MAX_VALUE : s; // saturate on overflow
        }

        void set(String name, long v) {
            values[slot(name)] = v;
        }

        void addAll(Acc o) {
            for (int i = 0; i < o.size; i++) {
                add(o.names[i], o.values[i]);
            }
        }

        void maxAll(Acc o) {
            for (int i = 0; i < o.size; i++) {
                int j = slot(o.names[i]);
                if (o.values[i] > values[j]) {
                    values[j] = o.values[i];
                }
            }
        }

        ResourceList toResourceList() {
            if (size == 0) {
                return ResourceList.EMPTY;
            }
            long[] out = new long[size];
            for (int i = 0; i < size; i++) {
                long unit = ResourceList.CPU.equals(names[i]) ? NANOS_PER_MILLI : MILLIS_PER_UNIT;
                long v = values[i];
                out[i] = v / unit + (v % unit > 0 ? 1 : 0);
            }
            return ResourceList.of(names, out, size);
        }
    }
}
