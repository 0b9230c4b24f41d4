package dev.muster.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.muster.bench.ShapeFamily.Bound;
import dev.muster.bench.ShapeFamily.Layout;
import dev.muster.bench.ShapeFamily.NodeData;
import dev.muster.bench.ShapeFamily.Rack;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;

import static dev.muster.bench.FamilyObjects.FABRIC;
import static dev.muster.bench.FamilyObjects.MIG;
import static dev.muster.bench.FamilyObjects.NS;
import static dev.muster.bench.FamilyObjects.POD_CLAIM_NAME;

/**
 * The DRA objects of a {@link FamilyObjects} request: device classes, ResourceSlices (GPUs with the attributes a
 * driver publishes, partitions and their counters, a rack's fabric channels), claim templates, the claims the
 * resourceclaim controller generated for pending pods and PodGroups, and the allocated claims of bound holders. It
 * writes to the request's generator and draws uids and names from the layout's random source, so the caller keeps the
 * order in which objects are written.
 */
final class FamilyDraObjects {
    private static final String RACK = ShapeFamily.RACK;

    private final Layout l;
    private final JsonGenerator g;
    /** The names of the bound holders' claims, in the order their pods were written. */
    private final List<String> held;
    private final Function<Bound, String> holderUid;
    private int heldIndex;

    FamilyDraObjects(Layout l, JsonGenerator g, List<String> held, Function<Bound, String> holderUid) {
        this.l = l;
        this.g = g;
        this.held = held;
        this.holderUid = holderUid;
    }

    // ------------------------------------------------------------------------------------------ DRA objects

    void deviceClass(String name, String selector) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "DeviceClass");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("uid", l.uid());
        g.writeNumberField("generation", 1);
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeArrayFieldStart("selectors");
        cel(selector);
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void cel(String expression) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("cel");
        g.writeStringField("expression", expression);
        g.writeEndObject();
        g.writeEndObject();
    }

    private void sliceHead(String name, String driver, String pool, int count, String node) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "ResourceSlice");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("generateName", name.substring(0, name.length() - 5));
        g.writeStringField("uid", l.uid());
        g.writeStringField("creationTimestamp", FamilyObjects.EPOCH.minusSeconds(86_400L * 29).toString());
        if (node != null) {
            FamilyObjects.ownerReferences(g, "v1", "Node", node, "00000000-0000-4000-8000-" + String.format("%012x",
                    node.hashCode() & 0xffffffffL));
        }
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("driver", driver);
        g.writeObjectFieldStart("pool");
        g.writeNumberField("generation", 1);
        g.writeStringField("name", pool);
        g.writeNumberField("resourceSliceCount", count);
        g.writeEndObject();
        if (node != null) {
            g.writeStringField("nodeName", node);
        }
    }

    void counterSlice(NodeData n) throws IOException {
        sliceHead(l.generateName("resourceslice", n.name + "-" + ShapeFamily.DRIVER + "-"), ShapeFamily.DRIVER, n.name, 2, n.name);
        g.writeArrayFieldStart("sharedCounters");
        for (int d = 0; d < ShapeFamily.GPUS; d++) {
            g.writeStartObject();
            g.writeStringField("name", "gpu-" + d + "-counter-set");
            g.writeObjectFieldStart("counters");
            counter("compute", "7");
            counter("memory", "80Gi");
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void counter(String name, String value) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeStringField("value", value);
        g.writeEndObject();
    }

    /**
     * The 7 partitions of a GPU: profile, device-name part, compute and memory consumed. Partitions carry only the
     * attributes selectors read (type, profile, parent index): with the whole set a GPU driver publishes, the
     * 5,000-node request would pass the 128 MiB body limit.
     */
    private static final String[][] PARTITIONS = {
            {"1g.10gb", "1g10gb-0", "1", "10Gi"}, {"1g.10gb", "1g10gb-1", "1", "10Gi"},
            {"1g.10gb", "1g10gb-2", "1", "10Gi"}, {"1g.10gb", "1g10gb-3", "1", "10Gi"},
            {"2g.20gb", "2g20gb-0", "2", "20Gi"}, {"2g.20gb", "2g20gb-1", "2", "20Gi"},
            {"3g.40gb", "3g40gb-0", "3", "40Gi"}};

    void gpuSlice(NodeData n) throws IOException {
        Rack r = l.racks.get(n.rack);
        boolean parts = r.mig;
        sliceHead(l.generateName("resourceslice", n.name + "-" + ShapeFamily.DRIVER + "-"), ShapeFamily.DRIVER, n.name, parts ? 2 : 1,
                n.name);
        g.writeArrayFieldStart("devices");
        for (int d = 0; d < ShapeFamily.GPUS; d++) {
            g.writeStartObject();
            g.writeStringField("name", "gpu-" + d);
            g.writeObjectFieldStart("attributes");
            str("architecture", r.model.architecture());
            str("brand", "Nvidia");
            version("cudaComputeCapability", r.model.computeCapability());
            version("cudaDriverVersion", "12.8.0");
            version("driverVersion", r.driverVersion);
            integer("index", d);
            str("interconnect", r.islands ? n.name + "-nvlink-" + d / 4 : n.name + "-nvswitch");
            integer("minor", d);
            integer("numa", d / 4);
            str("pcieBusID", String.format("0000:%02x:00.0", 0x18 + 0x20 * d));
            str("productName", r.model.product());
            str("resource.kubernetes.io/pcieRoot", String.format("pci0000:%02x", 0x10 * (d / 2)));
            str("type", "gpu");
            str("uuid", n.uuids[d]);
            g.writeEndObject();
            g.writeObjectFieldStart("capacity");
            counter("memory", r.model.memoryGi() + "Gi");
            g.writeEndObject();
            if (parts) {
                consumes(d, "7", r.model.memoryGi() + "Gi");
            }
            g.writeEndObject();
            if (parts) {
                for (String[] p : PARTITIONS) {
                    g.writeStartObject();
                    g.writeStringField("name", "gpu-" + d + "-mig-" + p[1]);
                    g.writeObjectFieldStart("attributes");
                    integer("parentIndex", d);
                    str("profile", p[0]);
                    str("type", "mig");
                    g.writeEndObject();
                    g.writeObjectFieldStart("capacity");
                    counter("memory", p[3]);
                    g.writeEndObject();
                    consumes(d, p[2], p[3]);
                    g.writeEndObject();
                }
            }
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void consumes(int gpu, String compute, String memory) throws IOException {
        g.writeArrayFieldStart("consumesCounters");
        g.writeStartObject();
        g.writeStringField("counterSet", "gpu-" + gpu + "-counter-set");
        g.writeObjectFieldStart("counters");
        counter("compute", compute);
        counter("memory", memory);
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndArray();
    }

    /** A rack's fabric channels: reachable from every node of the rack (a one-term node selector on its label). */
    void fabricSlice(Rack r) throws IOException {
        sliceHead(l.generateName("resourceslice", r.name + "-" + FABRIC + "-"), FABRIC, r.name, 1, null);
        g.writeObjectFieldStart("nodeSelector");
        g.writeArrayFieldStart("nodeSelectorTerms");
        g.writeStartObject();
        g.writeArrayFieldStart("matchExpressions");
        g.writeStartObject();
        g.writeStringField("key", RACK);
        g.writeStringField("operator", "In");
        g.writeArrayFieldStart("values");
        g.writeString(r.name);
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeArrayFieldStart("devices");
        for (int c = 0; c < 8; c++) {
            g.writeStartObject();
            g.writeStringField("name", "channel-" + c);
            g.writeObjectFieldStart("attributes");
            str("domain", r.name);
            integer("id", c);
            str("type", "channel");
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void str(String name, String value) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeStringField("string", value);
        g.writeEndObject();
    }

    private void version(String name, String value) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeStringField("version", value);
        g.writeEndObject();
    }

    private void integer(String name, long value) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("int", value);
        g.writeEndObject();
    }

    // ------------------------------------------------------------------------------------------ claims

    void claimTemplate(String ns, String name) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "ResourceClaimTemplate");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        g.writeStringField("uid", l.uid());
        g.writeStringField("creationTimestamp", FamilyObjects.EPOCH.minusSeconds(3_600).toString());
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeObjectFieldStart("spec");
        claimSpec(name);
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    /** The {@code devices} of a claim made from template {@code template}. */
    private void claimSpec(String template) throws IOException {
        g.writeObjectFieldStart("devices");
        g.writeArrayFieldStart("requests");
        switch (template) {
            case "one-gpu" -> exact("gpu", ShapeFamily.DRIVER, 1, memory("40Gi"));
            case "one-gpu-80gi" -> exact("gpu", ShapeFamily.DRIVER, 1, memory("80Gi"));
            case "gpu-2g-20gb" -> exact("gpu", MIG, 1, "device.attributes['gpu.example.com'].profile == '2g.20gb'");
            case "eight-gpus-nvlink" -> exact("gpus", ShapeFamily.DRIVER, 8, memory("40Gi"));
            case "fabric-channel" -> exact("channel", FABRIC, 1, null);
            case "gpu-prefer-h200" -> {
                g.writeStartObject();
                g.writeArrayFieldStart("firstAvailable");
                sub("h200", memory("141Gi"));
                sub("h100", memory("80Gi"));
                sub("any", memory("40Gi"));
                g.writeEndArray();
                g.writeStringField("name", "gpu");
                g.writeEndObject();
            }
            default -> {
                if (!template.startsWith("gpus-")) {
                    throw new IllegalArgumentException(template);
                }
                exact("gpus", ShapeFamily.DRIVER, Integer.parseInt(template.substring(5)), null);
            }
        }
        g.writeEndArray();
        if (template.equals("eight-gpus-nvlink")) {
            g.writeArrayFieldStart("constraints");
            g.writeStartObject();
            g.writeStringField("matchAttribute", "gpu.example.com/interconnect");
            g.writeArrayFieldStart("requests");
            g.writeString("gpus");
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static String memory(String atLeast) {
        return "device.capacity['gpu.example.com'].memory.compareTo(quantity('" + atLeast + "')) >= 0";
    }

    private void exact(String name, String deviceClass, int count, String selector) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("exactly");
        g.writeStringField("allocationMode", "ExactCount");
        g.writeNumberField("count", count);
        g.writeStringField("deviceClassName", deviceClass);
        if (selector != null) {
            g.writeArrayFieldStart("selectors");
            cel(selector);
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeStringField("name", name);
        g.writeEndObject();
    }

    private void sub(String name, String selector) throws IOException {
        g.writeStartObject();
        g.writeStringField("allocationMode", "ExactCount");
        g.writeNumberField("count", 1);
        g.writeStringField("deviceClassName", ShapeFamily.DRIVER);
        g.writeStringField("name", name);
        g.writeArrayFieldStart("selectors");
        cel(selector);
        g.writeEndArray();
        g.writeEndObject();
    }

    /** A claim the resourceclaim controller generated from {@code template} for its owner's entry, not allocated. */
    void claim(String name, String owner, String ownerUid, String ownerApi, String ownerKind, String entry,
                       String template) throws IOException {
        claimHead(name, ownerKind.equals("Pod") && owner.startsWith("batch-") ? "batch" : NS, owner, ownerUid,
                ownerApi, ownerKind, entry, false);
        g.writeObjectFieldStart("spec");
        claimSpec(template);
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeEndObject();
        g.writeEndObject();
    }

    private void claimHead(String name, String ns, String owner, String ownerUid, String ownerApi, String ownerKind,
                           String entry, boolean allocated) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "ResourceClaim");
        g.writeObjectFieldStart("metadata");
        g.writeObjectFieldStart("annotations");
        g.writeStringField(POD_CLAIM_NAME, entry);
        g.writeEndObject();
        g.writeStringField("creationTimestamp", FamilyObjects.EPOCH.plusSeconds(allocated ? -3_599 : 1).toString());
        if (allocated) {
            g.writeArrayFieldStart("finalizers");
            g.writeString("resource.kubernetes.io/delete-protection");
            g.writeEndArray();
        }
        g.writeStringField("generateName", name.substring(0, name.length() - 5));
        g.writeStringField("name", name);
        g.writeStringField("namespace", ns);
        FamilyObjects.ownerReferences(g, ownerApi, ownerKind, owner, ownerUid);
        g.writeStringField("uid", l.uid());
        g.writeEndObject();
    }


    /** A bound holder's claim: allocated on its node (first the devices it holds), reserved for the pod. */
    void heldClaim(Bound b) throws IOException {
        String name = held.get(heldIndex++);
        NodeData n = l.nodes[b.node()];
        claimHead(name, b.namespace(), b.name(), holderUid.apply(b), "v1", "Pod", "gpus", true);
        g.writeObjectFieldStart("spec");
        claimSpec("gpus-" + b.gpus().length);
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeObjectFieldStart("allocation");
        g.writeStringField("allocationTimestamp", FamilyObjects.EPOCH.plusSeconds(-3_598).toString());
        g.writeObjectFieldStart("devices");
        g.writeArrayFieldStart("results");
        for (int d : b.gpus()) {
            g.writeStartObject();
            g.writeStringField("device", "gpu-" + d);
            g.writeStringField("driver", ShapeFamily.DRIVER);
            g.writeStringField("pool", n.name);
            g.writeStringField("request", "gpus");
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("nodeSelector");
        g.writeArrayFieldStart("nodeSelectorTerms");
        g.writeStartObject();
        g.writeArrayFieldStart("matchFields");
        g.writeStartObject();
        g.writeStringField("key", "metadata.name");
        g.writeStringField("operator", "In");
        g.writeArrayFieldStart("values");
        g.writeString(n.name);
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
        g.writeArrayFieldStart("reservedFor");
        g.writeStartObject();
        g.writeStringField("name", b.name());
        g.writeStringField("resource", "pods");
        g.writeStringField("uid", holderUid.apply(b));
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }
}
