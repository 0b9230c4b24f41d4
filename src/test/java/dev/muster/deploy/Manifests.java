package dev.muster.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The manifests under {@code k8s/} read the way {@code kubectl apply -k} reads them: each kustomization with its
 * resources in order, API objects as typed fabric8 objects, and the files that are not API objects
 * (kustomization.yaml, the KubeSchedulerConfiguration) as YAML trees.
 */
final class Manifests {
    static final Path ROOT = Path.of("k8s");
    private static final KubernetesSerialization KUBE = new KubernetesSerialization();
    private static final YAMLMapper YAML = new YAMLMapper();

    private Manifests() {
    }

    /** The YAML documents of a file, without the empty ones (comments only). */
    static List<String> documents(Path file) {
        List<String> out = new ArrayList<>();
        try {
            for (String doc : Files.readString(file).split("(?m)^---\\s*$")) {
                if (!doc.replaceAll("(?m)^\\s*#.*$", "").isBlank()) {
                    out.add(doc);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static List<HasMetadata> objects(Path file) {
        return documents(file).stream().map(d -> KUBE.unmarshal(d, HasMetadata.class)).toList();
    }

    static JsonNode tree(Path file) {
        try {
            return YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every directory under k8s/ that holds a kustomization.yaml. */
    static List<Path> kustomizations() {
        try (Stream<Path> s = Files.walk(ROOT)) {
            return s.filter(p -> p.getFileName().toString().equals("kustomization.yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The objects of one kustomization's {@code resources}, in listed order (files only; directories recurse). */
    static List<HasMetadata> resources(Path kustomization) {
        List<HasMetadata> out = new ArrayList<>();
        for (JsonNode r : tree(kustomization).path("resources")) {
            Path p = kustomization.getParent().resolve(r.asText()).normalize();
            if (Files.isDirectory(p)) {
                out.addAll(resources(p.resolve("kustomization.yaml")));
            } else {
                out.addAll(objects(p));
            }
        }
        return out;
    }

    static <T extends HasMetadata> List<T> all(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    static <T extends HasMetadata> T one(List<HasMetadata> objects, Class<T> type, String name) {
        return find(objects, type, name).orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name));
    }

    static <T extends HasMetadata> Optional<T> find(List<HasMetadata> objects, Class<T> type, String name) {
        return all(objects, type).stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst();
    }
}
