package dev.muster.adapter.kube;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A map key is one String object throughout a request on the byte path, however many one-of-a-kind values (a GPU's
 * uuid, a pod's name) come between its repeats: the mappers find an attribute's name, and a device list its key
 * layout, by identity.
 */
class MapKeySharingTest {
    private static final List<String> KEYS = List.of("architecture", "brand", "index", "model", "numa",
            "pcieBusID", "productName", "resource.kubernetes.io/pcieRoot", "uuid");

    private static String device(int node, int gpu) {
        StringBuilder attrs = new StringBuilder();
        for (String k : KEYS) {
            String v = switch (k) {
                case "uuid" -> "\"string\": \"GPU-%08x-%04x-4bcd-9f%02d-%012d\"".formatted(node * 31 + gpu, node, gpu,
                        node * 8L + gpu);
                case "index", "numa" -> "\"int\": " + (k.equals("numa") ? gpu / 4 : gpu);
                case "pcieBusID" -> "\"string\": \"0000:%02x:%02x.0\"".formatted(node % 256, gpu);
                case "resource.kubernetes.io/pcieRoot" -> "\"string\": \"pci0000:%02x\"".formatted(gpu / 2);
                default -> "\"string\": \"" + k + "-value\"";
            };
            attrs.append(attrs.isEmpty() ? "" : ",").append('"').append(k).append("\": {").append(v).append('}');
        }
        return "{\"name\": \"gpu-%d\", \"attributes\": {%s}}".formatted(gpu, attrs);
    }

    private static String slice(int node) {
        List<String> devices = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            devices.add(device(node, g));
        }
        return """
                {"metadata": {"name": "node-%05d-gpu-%s", "uid": "uid-%d"},
                 "spec": {"driver": "gpu.example.com", "nodeName": "node-%05d",
                  "pool": {"name": "node-%05d", "generation": 1, "resourceSliceCount": 1},
                  "devices": [%s]}}""".formatted(node, Integer.toHexString(node * 7919), node, node, node,
                String.join(",", devices));
    }

    @Test
    void everyDeviceHasTheFirstDevicesKeyObjects() {
        int nodes = 2_000;
        List<String> slices = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            slices.add(slice(n));
        }
        byte[] body = ("{\"snapshot\": {\"resourceSlices\": [" + String.join(",", slices) + "]}}")
                .getBytes(StandardCharsets.UTF_8);
        RequestDocument doc = new KubeCodec(KubeCodec.Limits.DEFAULT).readBytes(body);
        assertThat(doc).as("the byte path reads it").isNotNull();

        List<KubeDra.ResourceSlice> read = doc.snapshot().resourceSlices();
        assertThat(read).hasSize(nodes);
        List<String> first = List.copyOf(read.get(0).spec().devices().get(0).attributes().keySet());
        assertThat(first).containsExactlyElementsOf(KEYS);
        int devices = 0;
        for (KubeDra.ResourceSlice s : read) {
            for (KubeDra.Device d : s.spec().devices()) {
                int i = 0;
                for (Map.Entry<String, KubeDra.Attribute> e : d.attributes().entrySet()) {
                    assertThat(e.getKey()).as("key %d of %s/%s", i, s.metadata().name(), d.name())
                            .isSameAs(first.get(i));
                    i++;
                }
                assertThat(i).isEqualTo(KEYS.size());
                devices++;
            }
        }
        assertThat(devices).isEqualTo(nodes * 8);
    }
}
