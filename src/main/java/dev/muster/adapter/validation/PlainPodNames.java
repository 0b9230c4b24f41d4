package dev.muster.adapter.validation;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.GroupMembership;
import dev.muster.adapter.kube.RequestDocument;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The request's {@code pods}: each entry must be {@code "namespace/name"} and name a pending plain pod of the
 * snapshot, not a bound pod and not a pod that joins a group by any shape the service reads (its group is named in
 * {@code podGroups} instead). Every bad entry is a cause on {@code pods[i]}, all at once.
 */
final class PlainPodNames {
    private PlainPodNames() {
    }

    static void validate(List<String> names, RequestDocument.Snapshot snapshot, int maxPods, Causes c) {
        if (names == null) {
            return;
        }
        if (names.size() > maxPods) {
            c.tooMany("pods", names.size(), maxPods);
            return;
        }
        Map<String, Kube.Pod> pods = null;
        Function<Kube.Pod, String> groupOf = null;
        for (int i = 0; i < names.size(); i++) {
            String field = "pods[" + i + "]";
            String n = names.get(i);
            int slash = n == null ? -1 : n.indexOf('/');
            if (n == null || slash < 0 || !Names.isDnsLabel(n.substring(0, slash))
                    || !Names.isDnsSubdomain(n.substring(slash + 1))) {
                c.invalid(field, n, "must be \"<namespace>/<name>\" of a pod, with a DNS label namespace and a DNS "
                        + "subdomain name (e.g. \"default/web-7d4f9c-x2k8q\")");
                continue;
            }
            if (pods == null) {
                pods = byName(snapshot);
            }
            Kube.Pod pod = pods.get(n);
            if (pod == null) {
                c.notFound(field, n, "no pod of that namespace and name in snapshot.pods");
                continue;
            }
            String node = pod.spec() == null ? null : pod.spec().nodeName();
            if (node != null && !node.isEmpty()) {
                c.invalid(field, n, "the pod is bound to node \"" + node + "\": only pending pods are decided");
                continue;
            }
            if (groupOf == null) {
                groupOf = groupOf(snapshot);
            }
            String group = groupOf.apply(pod);
            if (group != null) {
                c.invalid(field, n, "the pod belongs to pod group \"" + n.substring(0, slash) + "/" + group
                        + "\": name its group in podGroups instead");
            }
        }
    }

    private static Map<String, Kube.Pod> byName(RequestDocument.Snapshot snapshot) {
        Map<String, Kube.Pod> out = new HashMap<>();
        if (snapshot.pods() == null) {
            return out;
        }
        for (Kube.Pod p : snapshot.pods()) {
            if (p != null && p.metadata() != null && p.metadata().name() != null) {
                out.putIfAbsent(p.metadata().namespaceOrDefault() + "/" + p.metadata().name(), p);
            }
        }
        return out;
    }

    /** Group membership as the mapper reads it; on a snapshot too broken to map (its own causes say why), none. */
    private static Function<Kube.Pod, String> groupOf(RequestDocument.Snapshot snapshot) {
        try {
            Function<Kube.Pod, String> f = GroupMembership.of(snapshot);
            return p -> {
                try {
                    return f.apply(p);
                } catch (RuntimeException e) {
                    return null;
                }
            };
        } catch (RuntimeException e) {
            return p -> null;
        }
    }
}
