package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Random;

/**
 * Seeded random REST request bodies (the JSON of docs/api.md, as kubectl prints objects: no empty lists or strings),
 * for parity tests and timings. The same seed always gives the same bytes. Clusters mix zones, taints, cordoned
 * nodes, bound low-priority pods (preemption victims), gang and basic groups with and without a zone constraint,
 * node selectors, tolerations, scheduling gates and PriorityClasses, so that every outcome shows up across seeds.
 */
public final class RandomSnapshots {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] ZONES = {"zone-a", "zone-b", "zone-c"};
    private static final String[] CPU = {"250m", "500m", "1", "2", "3500m", "6"};
    private static final String[] MEM = {"256Mi", "1Gi", "2Gi", "4Gi"};

    private RandomSnapshots() {
    }

    /** A small random cluster: 2-13 nodes, 1-4 groups, up to 3 bound pods per node; tight enough to fail often. */
    public static String small(long seed) {
        Random r = new Random(seed);
        int nodes = 2 + r.nextInt(12);
        return request(r, nodes, 1 + r.nextInt(4), r.nextInt(3 * nodes), r.nextInt(5) > 0);
    }

    /** A large cluster: {@code nodes} nodes, {@code boundPods} bound pods, 10 gangs of 8. */
    static String large(long seed, int nodes, int boundPods) {
        return request(new Random(seed), nodes, 10, boundPods, true);
    }

    static byte[] bytes(String json) {
        return json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static String request(Random r, int nodeCount, int groupCount, int boundPods, boolean preemption) {
        ObjectNode root = F.objectNode();
        ObjectNode snap = root.putObject("snapshot");
        ArrayNode nodes = snap.putArray("nodes");
        for (int i = 0; i < nodeCount; i++) {
            nodes.add(node(r, i));
        }
        ArrayNode pods = snap.putArray("pods");
        for (int i = 0; i < boundPods; i++) {
            ObjectNode p = pod("batch", "bound-" + i, r);
            ((ObjectNode) p.get("spec")).put("nodeName", "node-" + r.nextInt(nodeCount));
            if (r.nextBoolean()) {
                ((ObjectNode) p.get("spec")).put("priorityClassName", "low");
            }
            p.putObject("status").put("phase", "Running");
            pods.add(p);
        }
        ArrayNode groups = snap.putArray("podGroups");
        for (int g = 0; g < groupCount; g++) {
            String ns = g % 2 == 0 ? "team-a" : "team-b";
            String name = "job-" + g;
            int members = 1 + r.nextInt(10);
            ObjectNode pg = F.objectNode();
            pg.put("apiVersion", "scheduling.k8s.io/v1alpha2").put("kind", "PodGroup");
            ObjectNode meta = pg.putObject("metadata");
            meta.put("name", name).put("namespace", ns).put("uid", "uid-" + ns + "-" + name)
                    .put("generation", 1 + r.nextInt(3))
                    .put("creationTimestamp", String.format("2026-04-22T10:%02d:00Z", r.nextInt(60)));
            ObjectNode spec = pg.putObject("spec");
            if (r.nextInt(3) == 0) {
                spec.putObject("schedulingPolicy").putObject("basic");
            } else {
                spec.putObject("schedulingPolicy").putObject("gang").put("minCount", 1 + r.nextInt(members));
            }
            if (r.nextInt(3) == 0) {
                spec.putObject("schedulingConstraints").putArray("topology").addObject()
                        .put("key", "topology.kubernetes.io/zone");
            }
            if (r.nextBoolean()) {
                spec.put("priorityClassName", r.nextBoolean() ? "high" : "low");
            }
            if (r.nextInt(4) == 0) {
                spec.put("disruptionMode", "PodGroup");
            }
            groups.add(pg);
            String cpu = CPU[r.nextInt(CPU.length)];
            String mem = MEM[r.nextInt(MEM.length)];
            for (int m = 0; m < members; m++) {
                ObjectNode p = pod(ns, name + "-" + m, r);
                ObjectNode ps = (ObjectNode) p.get("spec");
                ((ObjectNode) ps.get("containers").get(0).get("resources").get("requests")).put("cpu", cpu)
                        .put("memory", mem);
                ps.putObject("schedulingGroup").put("podGroupName", name);
                if (r.nextInt(10) == 0) {
                    ps.putObject("nodeSelector").put("topology.kubernetes.io/zone", ZONES[r.nextInt(ZONES.length)]);
                }
                if (r.nextInt(4) == 0) {
                    ps.putArray("tolerations").addObject().put("key", "gpu").put("operator", "Exists")
                            .put("effect", "NoSchedule");
                }
                if (r.nextInt(25) == 0) {
                    ps.putArray("schedulingGates").addObject().put("name", "example.com/quota");
                }
                p.putObject("status").put("phase", "Pending");
                pods.add(p);
            }
        }
        ArrayNode pcs = snap.putArray("priorityClasses");
        pcs.addObject().put("apiVersion", "scheduling.k8s.io/v1").put("kind", "PriorityClass")
                .put("value", 1000).putObject("metadata").put("name", "high");
        pcs.addObject().put("value", 10).putObject("metadata").put("name", "low");
        ObjectNode options = root.putObject("options");
        options.put("preemption", preemption);
        try {
            return JSON.writeValueAsString(root);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ObjectNode node(Random r, int i) {
        ObjectNode n = F.objectNode();
        n.put("apiVersion", "v1").put("kind", "Node");
        ObjectNode meta = n.putObject("metadata");
        meta.put("name", "node-" + i).put("uid", "node-uid-" + i).put("creationTimestamp", "2026-04-20T08:00:00Z");
        meta.putObject("labels").put("kubernetes.io/hostname", "node-" + i)
                .put("topology.kubernetes.io/zone", ZONES[i % ZONES.length]);
        ObjectNode spec = n.putObject("spec");
        if (r.nextInt(8) == 0) {
            spec.putArray("taints").addObject().put("key", "gpu").put("value", "true").put("effect", "NoSchedule");
        }
        if (r.nextInt(20) == 0) {
            spec.put("unschedulable", true);
        }
        String cpu = new String[]{"2", "4", "8", "16"}[r.nextInt(4)];
        String mem = new String[]{"16Gi", "32Gi", "64Gi"}[r.nextInt(3)];
        ObjectNode status = n.putObject("status");
        status.putObject("capacity").put("cpu", cpu).put("memory", mem).put("pods", "110");
        status.putObject("allocatable").put("cpu", cpu).put("memory", mem).put("pods", "110");
        return n;
    }

    private static ObjectNode pod(String ns, String name, Random r) {
        ObjectNode p = F.objectNode();
        p.put("apiVersion", "v1").put("kind", "Pod");
        p.putObject("metadata").put("name", name).put("namespace", ns).put("uid", "pod-uid-" + ns + "-" + name)
                .put("creationTimestamp", String.format("2026-04-22T11:%02d:%02dZ", r.nextInt(60), r.nextInt(60)))
                .putObject("labels").put("app", name.replaceAll("-\\d+$", ""));
        ObjectNode spec = p.putObject("spec");
        spec.put("schedulerName", "default-scheduler");
        ObjectNode c = spec.putArray("containers").addObject();
        c.put("name", "main").put("image", "registry.example/app:1");
        c.putObject("resources").putObject("requests").put("cpu", CPU[r.nextInt(CPU.length)])
                .put("memory", MEM[r.nextInt(MEM.length)]);
        return p;
    }
}
