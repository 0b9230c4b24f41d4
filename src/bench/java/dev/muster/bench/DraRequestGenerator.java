package dev.muster.bench;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;

/**
 * The DRA benchmark request ({@code dra}), deterministic (no randomness): 5,000 nodes labelled with a rack
 * ({@value #NODES_PER_RACK} nodes per rack, so a rack holds 1,280 GPUs), each with one ResourceSlice of 8 GPUs
 * (driver {@value #DRIVER}, attributes {@code index} and {@code model}, capacity {@code memory} 80Gi); a DeviceClass
 * selecting {@code device.driver == 'gpu.example.com'}; 20,000 bound pods without claims (4 per node); and one
 * 1,000-pod gang whose members each have a template claim for 1 GPU with the request selector
 * {@code device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0}, the PodGroup constrained to
 * one rack ({@code spec.schedulingConstraints.topology: [{key: topology.kubernetes.io/rack}]}).
 * The gang needs 125 nodes' GPUs: it fits in any one rack (160 nodes) and in no fewer than 125 nodes.
 * {@code DraRequestGenerator <outDir>} writes {@code <outDir>/dra.json}.
 */
public final class DraRequestGenerator {
    public static final String SHAPE = "dra";
    public static final int NODES = 5_000;
    public static final int NODES_PER_RACK = 160;
    public static final int GPUS_PER_NODE = 8;
    public static final int BOUND = 20_000;
    public static final int GANG = 1_000;
    static final String DRIVER = "gpu.example.com";
    static final String CLASS_SELECTOR = "device.driver == 'gpu.example.com'";
    static final String REQUEST_SELECTOR =
            "device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0";
    private static final String NS = "ml";
    private static final Instant EPOCH = Instant.parse("2026-04-20T08:00:00Z");
    private static final JsonFactory FACTORY = new JsonFactory();

    private final JsonGenerator g;
    private final int gang;
    private final boolean generated;

    private DraRequestGenerator(JsonGenerator g, int gang, boolean generated) {
        this.g = g;
        this.gang = gang;
        this.generated = generated;
    }

    public static byte[] generate() {
        return generate(GANG);
    }

    /** The same cluster with a gang of {@code gang} members (for checking what grows with the pod count). */
    public static byte[] generate(int gang) {
        return generate(gang, Boolean.getBoolean("dra.generated"));
    }

    /**
     * @param generated whether each member's claim already exists, as the resourceclaim controller creates it
     *                  (owned by the pod, named in its {@code status.resourceClaimStatuses})
     */
    public static byte[] generate(int gang, boolean generated) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(32 << 20);
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            new DraRequestGenerator(g, gang, generated).write();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "target/bench-requests");
        Files.createDirectories(dir);
        long t0 = System.nanoTime();
        byte[] bytes = generate();
        Path f = dir.resolve(SHAPE + ".json");
        Files.write(f, bytes);
        System.out.printf(Locale.ROOT, "%-14s %,12d bytes  %,6d pending pods  %s  (%d ms)%n", SHAPE, bytes.length,
                GANG, f, (System.nanoTime() - t0) / 1_000_000);
    }

    private void write() throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("snapshot");
        g.writeArrayFieldStart("nodes");
        for (int i = 0; i < NODES; i++) {
            node(i);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("pods");
        for (int i = 0; i < BOUND; i++) {
            boundPod(i);
        }
        for (int i = 0; i < gang; i++) {
            gangPod(i);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("podGroups");
        podGroup();
        g.writeEndArray();
        g.writeArrayFieldStart("deviceClasses");
        deviceClass();
        g.writeEndArray();
        g.writeArrayFieldStart("resourceSlices");
        for (int i = 0; i < NODES; i++) {
            slice(i);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("resourceClaimTemplates");
        template();
        g.writeEndArray();
        if (generated) {
            g.writeArrayFieldStart("resourceClaims");
            for (int i = 0; i < gang; i++) {
                generatedClaim(i);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeObjectFieldStart("options");
        g.writeBooleanField("preemption", true);
        g.writeEndObject();
        g.writeEndObject();
    }

    static String nodeName(int i) {
        return "gpu-node-" + i;
    }

    private void node(int i) throws IOException {
        String name = nodeName(i);
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Node");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", name);
        g.writeObjectFieldStart("labels");
        g.writeStringField(RequestGenerator.HOSTNAME, name);
        g.writeStringField(RequestGenerator.ZONE, "zone-" + (i / 1_000));
        g.writeStringField(RequestGenerator.RACK, "rack-" + (i / NODES_PER_RACK));
        g.writeStringField("nvidia.com/gpu.product", "H100-SXM5-80GB");
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        for (String f : new String[]{"capacity", "allocatable"}) {
            g.writeObjectFieldStart(f);
            g.writeStringField("cpu", "96");
            g.writeStringField("memory", "1024Gi");
            g.writeStringField("pods", "110");
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void slice(int i) throws IOException {
        String node = nodeName(i);
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "ResourceSlice");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", node + "-" + DRIVER);
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("driver", DRIVER);
        g.writeObjectFieldStart("pool");
        g.writeStringField("name", node);
        g.writeNumberField("generation", 1);
        g.writeNumberField("resourceSliceCount", 1);
        g.writeEndObject();
        g.writeStringField("nodeName", node);
        g.writeArrayFieldStart("devices");
        for (int d = 0; d < GPUS_PER_NODE; d++) {
            g.writeStartObject();
            g.writeStringField("name", "gpu-" + d);
            g.writeObjectFieldStart("attributes");
            g.writeObjectFieldStart("index");
            g.writeNumberField("int", d);
            g.writeEndObject();
            g.writeObjectFieldStart("model");
            g.writeStringField("string", "H100-SXM5-80GB");
            g.writeEndObject();
            g.writeEndObject();
            g.writeObjectFieldStart("capacity");
            g.writeObjectFieldStart("memory");
            g.writeStringField("value", "80Gi");
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void deviceClass() throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "DeviceClass");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", DRIVER);
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeArrayFieldStart("selectors");
        cel(CLASS_SELECTOR);
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
    }

    static String memberName(int i) {
        return String.format(Locale.ROOT, "trainer-%04d", i);
    }

    static String claimName(int i) {
        return memberName(i) + "-gpu-" + Integer.toString(100_000 + i * 7919 % 900_000, 36);
    }

    /** The claim the controller made for member {@code i} from the template. */
    private void generatedClaim(int i) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "ResourceClaim");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("namespace", NS);
        g.writeStringField("name", claimName(i));
        g.writeStringField("uid", "claim-uid-" + i);
        g.writeObjectFieldStart("annotations");
        g.writeStringField("resource.kubernetes.io/pod-claim-name", "gpu");
        g.writeEndObject();
        g.writeArrayFieldStart("ownerReferences");
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeStringField("name", memberName(i));
        g.writeStringField("uid", "trainer-uid-" + i);
        g.writeBooleanField("controller", true);
        g.writeBooleanField("blockOwnerDeletion", true);
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        claimSpec();
        g.writeEndObject();
        g.writeEndObject();
    }

    private void claimSpec() throws IOException {
        g.writeObjectFieldStart("devices");
        g.writeArrayFieldStart("requests");
        g.writeStartObject();
        g.writeStringField("name", "gpu");
        g.writeObjectFieldStart("exactly");
        g.writeStringField("deviceClassName", DRIVER);
        g.writeArrayFieldStart("selectors");
        cel(REQUEST_SELECTOR);
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
    }

    private void template() throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "resource.k8s.io/v1");
        g.writeStringField("kind", "ResourceClaimTemplate");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("namespace", NS);
        g.writeStringField("name", "one-gpu");
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeObjectFieldStart("spec");
        claimSpec();
        g.writeEndObject();
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

    /** Bound pods without claims: 4 per node, 4 CPU / 16Gi each, so every node keeps 80 CPUs free. */
    private void boundPod(int i) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", "svc-" + i);
        g.writeStringField("namespace", "apps");
        g.writeStringField("uid", "bound-" + i);
        g.writeObjectFieldStart("labels");
        g.writeStringField("app", "svc-" + (i % 50));
        g.writeEndObject();
        g.writeStringField("creationTimestamp", EPOCH.plusSeconds(i / 100).toString());
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeStringField("nodeName", nodeName(i % NODES));
        container("svc", "4", "16Gi", false);
        g.writeEndObject();
        g.writeObjectFieldStart("status");
        g.writeStringField("phase", "Running");
        g.writeEndObject();
        g.writeEndObject();
    }

    /** A gang member: one template claim for 1 GPU, 8 CPU / 64Gi (8 members fit a node's 80 free CPUs). */
    private void gangPod(int i) throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "v1");
        g.writeStringField("kind", "Pod");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", memberName(i));
        g.writeStringField("namespace", NS);
        g.writeStringField("uid", "trainer-uid-" + i);
        g.writeObjectFieldStart("labels");
        g.writeStringField("app", "trainer");
        g.writeEndObject();
        g.writeStringField("creationTimestamp", EPOCH.plusSeconds(3_600 + i).toString());
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeObjectFieldStart("schedulingGroup");
        g.writeStringField("podGroupName", "train");
        g.writeEndObject();
        g.writeArrayFieldStart("resourceClaims");
        g.writeStartObject();
        g.writeStringField("name", "gpu");
        g.writeStringField("resourceClaimTemplateName", "one-gpu");
        g.writeEndObject();
        g.writeEndArray();
        container("trainer", "8", "64Gi", true);
        g.writeEndObject();
        if (generated) {
            g.writeObjectFieldStart("status");
            g.writeStringField("phase", "Pending");
            g.writeArrayFieldStart("resourceClaimStatuses");
            g.writeStartObject();
            g.writeStringField("name", "gpu");
            g.writeStringField("resourceClaimName", claimName(i));
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private void container(String name, String cpu, String memory, boolean claim) throws IOException {
        g.writeArrayFieldStart("containers");
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("image", "registry.example.com/" + name + ":1.0");
        g.writeObjectFieldStart("resources");
        g.writeObjectFieldStart("requests");
        g.writeStringField("cpu", cpu);
        g.writeStringField("memory", memory);
        g.writeEndObject();
        if (claim) {
            g.writeArrayFieldStart("claims");
            g.writeStartObject();
            g.writeStringField("name", "gpu");
            g.writeEndObject();
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndArray();
    }

    private void podGroup() throws IOException {
        g.writeStartObject();
        g.writeStringField("apiVersion", "scheduling.k8s.io/v1alpha2");
        g.writeStringField("kind", "PodGroup");
        g.writeObjectFieldStart("metadata");
        g.writeStringField("name", "train");
        g.writeStringField("namespace", NS);
        g.writeStringField("uid", "pg-train");
        g.writeNumberField("generation", 1);
        g.writeStringField("creationTimestamp", EPOCH.plusSeconds(3_000).toString());
        g.writeEndObject();
        g.writeObjectFieldStart("spec");
        g.writeObjectFieldStart("schedulingPolicy");
        g.writeObjectFieldStart("gang");
        g.writeNumberField("minCount", gang);
        g.writeEndObject();
        g.writeEndObject();
        g.writeObjectFieldStart("schedulingConstraints");
        g.writeArrayFieldStart("topology");
        g.writeStartObject();
        g.writeStringField("key", RequestGenerator.RACK);
        g.writeEndObject();
        g.writeEndArray();
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }
}
