package dev.muster.adapter.extender;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** JSON builders for extender tests: core/v1 Nodes and Pods, v1alpha2 PodGroups, snapshot files. */
final class Fixtures {
    static final String RACK = "topology.kubernetes.io/rack";
    private static final AtomicLong MTIME = new AtomicLong(1_700_000_000_000L);

    private Fixtures() {
    }

    static String node(String name, String rack, String cpu) {
        return "{\"metadata\":{\"name\":\"" + name + "\",\"uid\":\"uid-" + name + "\",\"labels\":{\"" + RACK + "\":\""
                + rack + "\",\"kubernetes.io/hostname\":\"" + name + "\"}},"
                + "\"status\":{\"allocatable\":{\"cpu\":\"" + cpu + "\",\"memory\":\"16Gi\",\"pods\":\"110\"}}}";
    }

    /** A pending pod; {@code group} may be null. */
    static String pod(String ns, String name, String group, String cpu) {
        return pod(ns, name, group, cpu, null, null);
    }

    static String pod(String ns, String name, String group, String cpu, String nodeName, Integer priority) {
        StringBuilder spec = new StringBuilder("{\"schedulerName\":\"muster-scheduler\"");
        if (nodeName != null) {
            spec.append(",\"nodeName\":\"").append(nodeName).append('"');
        }
        if (priority != null) {
            spec.append(",\"priority\":").append(priority);
        }
        spec.append(",\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"").append(cpu)
                .append("\"}}}]");
        if (group != null) {
            spec.append(",\"schedulingGroup\":{\"podGroupName\":\"").append(group).append("\"}");
        }
        spec.append('}');
        String status = nodeName != null ? ",\"status\":{\"phase\":\"Running\"}" : "";
        return "{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"uid\":\"uid-" + name
                + "\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},\"spec\":" + spec + status + "}";
    }

    static String gang(String ns, String name, int minCount, String topologyKey) {
        return gang(ns, name, minCount, topologyKey, null, null);
    }

    static String gang(String ns, String name, int minCount, String topologyKey, Integer priority,
                       String disruptionMode) {
        StringBuilder spec = new StringBuilder("{\"schedulingPolicy\":{\"gang\":{\"minCount\":" + minCount + "}}");
        if (topologyKey != null) {
            spec.append(",\"schedulingConstraints\":{\"topology\":[{\"key\":\"").append(topologyKey).append("\"}]}");
        }
        if (priority != null) {
            spec.append(",\"priority\":").append(priority);
        }
        if (disruptionMode != null) {
            spec.append(",\"disruptionMode\":\"").append(disruptionMode).append('"');
        }
        spec.append('}');
        return "{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"uid\":\"uid-pg-" + name
                + "\",\"creationTimestamp\":\"2026-01-01T00:00:00Z\"},\"spec\":" + spec + "}";
    }

    static String snapshot(List<String> nodes, List<String> pods, List<String> groups) {
        return "{\"nodes\":[" + String.join(",", nodes) + "],\"pods\":[" + String.join(",", pods)
                + "],\"podGroups\":[" + String.join(",", groups) + "]}";
    }

    /** Writes the file and moves its mtime strictly forward, so a reload never depends on clock granularity. */
    static void write(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, content, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(tmp, FileTime.fromMillis(MTIME.addAndGet(1000)));
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Two racks of four 4-cpu nodes: a1..a4 in rack-a, b1..b4 in rack-b. */
    static List<String> twoRacks() {
        List<String> out = new ArrayList<>();
        for (String r : List.of("a", "b")) {
            for (int i = 1; i <= 4; i++) {
                out.add(node(r + i, "rack-" + r, "4"));
            }
        }
        return out;
    }

    static List<String> names(int from, int to, String prefix) {
        List<String> out = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            out.add(prefix + i);
        }
        return out;
    }
}
