package dev.muster.adapter.kube;

import dev.muster.core.model.ExtendedRequest;
import dev.muster.core.model.Quantity;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The containers' requests for extended resources ({@code example.com/gpu}, and the names
 * {@code deviceclass.resource.kubernetes.io/<class>} every DeviceClass answers to), in container order: what
 * kube-scheduler turns into device requests when a DeviceClass backs the resource (DRAExtendedResource). A request
 * is the container's {@code requests} entry, or its limit where only a limit is set (API defaulting); quantities
 * that are not whole numbers are left out, as upstream does. Empty for almost every pod.
 */
final class ExtendedRequests {
    static final String IMPLICIT_PREFIX = "deviceclass.resource.kubernetes.io/";

    private ExtendedRequests() {
    }

    static List<ExtendedRequest> of(Kube.PodSpec spec) {
        if (spec == null) {
            return List.of();
        }
        List<ExtendedRequest> out = null;
        List<Kube.Container> inits = spec.initContainers() == null ? List.of() : spec.initContainers();
        List<Kube.Container> regular = spec.containers() == null ? List.of() : spec.containers();
        int index = 0;
        for (Kube.Container c : inits) {
            out = add(out, c, index++, !c.isSidecar());
        }
        for (Kube.Container c : regular) {
            out = add(out, c, index++, false);
        }
        return out == null ? List.of() : out;
    }

    /** An extended resource name: it has a domain, and the domain is not Kubernetes' own (but for the implicit one). */
    static boolean isExtended(String name) {
        int slash = name.indexOf('/');
        if (slash < 0 || name.startsWith("requests.")) {
            return false;
        }
        return name.startsWith(IMPLICIT_PREFIX) || !name.substring(0, slash).endsWith("kubernetes.io");
    }

    private static List<ExtendedRequest> add(List<ExtendedRequest> out, Kube.Container c, int index,
                                             boolean shortLived) {
        Kube.Resources r = c.resources();
        if (r == null || (!anyExtended(r.requests()) && !anyExtended(r.limits()))) {
            return out; // nearly every container: no sorted key set to build
        }
        TreeSet<String> keys = new TreeSet<>();
        if (r.requests() != null) {
            keys.addAll(r.requests().keySet());
        }
        if (r.limits() != null) {
            keys.addAll(r.limits().keySet());
        }
        int keyIndex = 0;
        for (String key : keys) {
            if (isExtended(key)) {
                Qty q = value(r.requests(), key);
                if (q == null) {
                    q = value(r.limits(), key);
                }
                long milli = Quantity.scaledCeil(q.text(), 3);
                if (milli > 0 && milli % 1000 == 0) {
                    if (out == null) {
                        out = new ArrayList<>(2);
                    }
                    out.add(new ExtendedRequest(index, c.name() == null ? "" : c.name(), key, keyIndex,
                            milli / 1000, shortLived));
                }
            }
            keyIndex++;
        }
        return out;
    }

    private static boolean anyExtended(Map<String, Qty> m) {
        if (m != null) {
            for (String key : m.keySet()) {
                if (isExtended(key)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Qty value(Map<String, Qty> m, String key) {
        return m == null ? null : m.get(key);
    }
}
