package dev.muster.deploy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code k8s/rbac.yaml} read with the fabric8 model: the extender's ServiceAccount may read (get, list, watch, and
 * nothing more) the four resource.k8s.io kinds its cluster view watches.
 */
class RbacManifestTest {
    private static final Path MANIFEST = Path.of("k8s", "rbac.yaml");
    private static final List<String> DRA = List.of("deviceclasses", "resourceslices", "resourceclaims",
            "resourceclaimtemplates");

    static List<HasMetadata> objects() throws IOException {
        KubernetesSerialization yaml = new KubernetesSerialization();
        List<HasMetadata> out = new ArrayList<>();
        for (String doc : Files.readString(MANIFEST).split("(?m)^---\\s*$")) {
            if (!doc.replaceAll("(?m)^#.*$", "").isBlank()) {
                out.add(yaml.unmarshal(doc, HasMetadata.class));
            }
        }
        return out;
    }

    static ClusterRole role(List<HasMetadata> objects) {
        ClusterRoleBinding binding = (ClusterRoleBinding) objects.stream()
                .filter(o -> o instanceof ClusterRoleBinding).findFirst().orElseThrow();
        assertThat(binding.getSubjects()).anySatisfy(s -> {
            assertThat(s.getKind()).isEqualTo("ServiceAccount");
            assertThat(s.getName()).isEqualTo("muster");
            assertThat(s.getNamespace()).isEqualTo("muster-system");
        });
        assertThat(binding.getRoleRef().getKind()).isEqualTo("ClusterRole");
        return (ClusterRole) objects.stream()
                .filter(o -> o instanceof ClusterRole && o.getMetadata().getName()
                        .equals(binding.getRoleRef().getName()))
                .findFirst().orElseThrow();
    }

    @Test
    void theServiceAccountReadsExactlyTheFourDraResources() throws IOException {
        ClusterRole role = role(objects());
        Set<String> granted = new TreeSet<>();
        for (PolicyRule r : role.getRules()) {
            if (!r.getApiGroups().contains("resource.k8s.io")) {
                continue;
            }
            assertThat(r.getApiGroups()).containsExactly("resource.k8s.io");
            assertThat(r.getVerbs()).containsExactlyInAnyOrder("get", "list", "watch");
            assertThat(r.getResourceNames()).isNullOrEmpty();
            granted.addAll(r.getResources());
        }
        assertThat(granted).containsExactlyInAnyOrderElementsOf(DRA);
    }

    @Test
    void noRuleGrantsAWildcard() throws IOException {
        for (PolicyRule r : role(objects()).getRules()) {
            assertThat(r.getApiGroups()).doesNotContain("*");
            assertThat(r.getResources()).doesNotContain("*");
            assertThat(r.getVerbs()).doesNotContain("*");
        }
    }
}
