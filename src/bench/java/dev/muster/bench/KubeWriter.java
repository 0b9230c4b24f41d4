package dev.muster.bench;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.time.Instant;
import java.util.SplittableRandom;

/**
 * What the request generators' writers share: the JSON generator they write to, the seeded random source they draw
 * names, uids and choices from (one source per request, so the order of the draws fixes the bytes), and the pieces of
 * Kubernetes objects more than one of them writes.
 */
abstract class KubeWriter {
    static final Instant EPOCH = Instant.parse("2026-04-20T08:00:00Z");

    final JsonGenerator g;
    final SplittableRandom rnd;

    KubeWriter(JsonGenerator g, SplittableRandom rnd) {
        this.g = g;
        this.rnd = rnd;
    }

    void container(String name, String cpu, String memory, boolean main) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("image", "registry.example/" + name + ":1." + rnd.nextInt(9));
        g.writeStringField("imagePullPolicy", "IfNotPresent");
        if (main) {
            g.writeArrayFieldStart("ports");
            g.writeStartObject();
            g.writeNumberField("containerPort", 8080);
            g.writeStringField("name", "http");
            g.writeStringField("protocol", "TCP");
            g.writeEndObject();
            g.writeEndArray();
        }
        g.writeObjectFieldStart("resources");
        g.writeObjectFieldStart("requests");
        g.writeStringField("cpu", cpu);
        g.writeStringField("memory", memory);
        g.writeEndObject();
        g.writeObjectFieldStart("limits");
        g.writeStringField("memory", memory);
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    /** A homogeneous gang member in kubectl style (one container with requests and limits). */
    void gangPod(String ns, String name, String group, String cpu, String memory, int createdSec)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        g.writeStringField("uid", uid());
        g.writeStringField("creationTimestamp", ts(createdSec));
        g.writeObjectFieldStart("labels");
        g.writeStringField("job", group);
        g.writeStringField("role", "worker");
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("schedulerName", "default-scheduler");
        g.writeObjectFieldStart("schedulingGroup");
        g.writeStringField("podGroupName", group);
        g.writeEndObject();
        g.writeArrayFieldStart("containers");
        container("worker", cpu, memory, true);
        g.writeEndArray();
        g.writeArrayFieldStart("tolerations");
        toleration("node.kubernetes.io/not-ready", "Exists", null, "NoExecute", 300L);
        toleration("node.kubernetes.io/unreachable", "Exists", null, "NoExecute", 300L);
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeStringField("phase", "Pending");
        g.writeEndObject();
        g.writeEndObject();
    }


    void podGroup(String ns, String name, int minCount, String topologyKey, int createdSec) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "scheduling.k8s.io/v1alpha2");
        g.writeStringField("kind", "PodGroup");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        g.writeNumberField("generation", 1);
        g.writeStringField("creationTimestamp", ts(createdSec));
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeObjectFieldStart("schedulingPolicy");
        g.writeObjectFieldStart("gang");
        g.writeNumberField("minCount", minCount);
        g.writeEndObject();
        g.writeEndObject();
        if (topologyKey != null) {
            g.writeObjectFieldStart("schedulingConstraints");
            g.writeArrayFieldStart("topology");
            g.writeStartObject();
            g.writeStringField("key", topologyKey);
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    void priorityClass(String name, int value) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "scheduling.k8s.io/v1");
        g.writeStringField("kind", "PriorityClass");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeEndObject();
        g.writeNumberField("value", value);
        g.writeEndObject();
    }

    void taint(String key, String value, String effect) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", key);
        if (value != null) {
            g.writeStringField("value", value);
        }
        g.writeStringField("effect", effect);
        g.writeEndObject();
    }

    void toleration(String key, String op, String value, String effect, Long seconds) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", key);
        g.writeStringField("operator", op);
        if (value != null) {
            g.writeStringField("value", value);
        }
        g.writeStringField("effect", effect);
        if (seconds != null) {
            g.writeNumberField("tolerationSeconds", seconds);
        }
        g.writeEndObject();
    }

    void weightedTerm(int weight, String key, String value, String topologyKey) throws IOException {
        g.writeStartObject();
        g.writeNumberField("weight", weight);
        g.writeFieldName("podAffinityTerm");
        affinityTerm(key, value, topologyKey);
        g.writeEndObject();
    }

    void affinityTerm(String key, String value, String topologyKey) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("labelSelector");
        g.writeObjectFieldStart("matchLabels");
        g.writeStringField(key, value);
        g.writeEndObject();
        g.writeEndObject();
        g.writeStringField("topologyKey", topologyKey);
        g.writeEndObject();
    }

    void requirement(String key, String op, String... values) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", key);
        g.writeStringField("operator", op);
        g.writeArrayFieldStart("values");
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    void address(String type, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", type);
        g.writeStringField("address", value);
        g.writeEndObject();
    }

    /** A random version-4-looking UID (String.format is too slow for 100,000 of them). */
    String uid() {
        char[] c = new char[36];
        long a = rnd.nextLong();
        long b = rnd.nextLong();
        for (int i = 0, k = 0; i < 36; i++) {
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                c[i] = '-';
            } else {
                long src = k < 16 ? a : b;
                c[i] = HEX[(int) (src >>> ((k % 16) * 4)) & 15];
                k++;
            }
        }
        c[14] = '4';
        c[19] = '8';
        return new String(c);
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final char[] NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

    /** {@code n} characters: hex digits for long runs (digests), kube-style name suffix chars otherwise. */
    String hex(int n) {
        char[] alphabet = n > 16 ? HEX : NAME_CHARS;
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = alphabet[rnd.nextInt(alphabet.length)];
        }
        return new String(c);
    }

    static String ts(long offsetSec) {
        return EPOCH.plusSeconds(offsetSec).toString();
    }
}
