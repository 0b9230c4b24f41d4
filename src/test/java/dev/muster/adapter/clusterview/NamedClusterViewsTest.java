package dev.muster.adapter.clusterview;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Watched clusters by name: a kubeconfig context picks the API server; bad keys stop startup naming the key. */
@EnableKubernetesMockClient(crud = true)
class NamedClusterViewsTest {
    static KubernetesClient client;

    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

    private static ClustersConfig.Cluster cluster(String source, String context, String file) {
        return new ClustersConfig.Cluster() {
            @Override
            public String source() {
                return source;
            }

            @Override
            public Optional<String> context() {
                return Optional.ofNullable(context);
            }

            @Override
            public Optional<String> file() {
                return Optional.ofNullable(file);
            }

            @Override
            public Duration fileCheckInterval() {
                return Duration.ZERO;
            }
        };
    }

    @Test
    void aKubeconfigContextChoosesTheApiServerTheViewWatches(@TempDir Path dir) throws Exception {
        for (int i = 0; i < 3; i++) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName("lab-" + i).endMetadata()
                    .withNewStatus().withAllocatable(Map.of("cpu", new Quantity("8"))).endStatus().build()).create();
        }
        Path kubeconfig = dir.resolve("config");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                current-context: elsewhere
                clusters:
                - name: lab
                  cluster: {server: "%s", insecure-skip-tls-verify: true}
                - name: elsewhere
                  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
                users:
                - name: u
                  user: {token: t}
                contexts:
                - name: lab
                  context: {cluster: lab, user: u}
                - name: elsewhere
                  context: {cluster: elsewhere, user: u}
                """.formatted(client.getConfiguration().getMasterUrl()));
        String before = System.getProperty("kubeconfig");
        System.setProperty("kubeconfig", kubeconfig.toString());
        ClusterViewSource s = null;
        try {
            s = ClusterViewProducer.namedSource("lab", cluster("kubernetes", "lab", null), validator, codec);
            NamedClusterViews views = new NamedClusterViews(Map.of("lab", s));
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (!views.notSynced("lab").isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(views.notSynced("lab")).as("synced from the lab context's server").isEmpty();
            assertThat(s.current().state().nodes()).extracting(n -> n.name())
                    .containsExactly("lab-0", "lab-1", "lab-2");
        } finally {
            if (s != null) {
                s.close();
            }
            if (before == null) {
                System.clearProperty("kubeconfig");
            } else {
                System.setProperty("kubeconfig", before);
            }
        }
    }

    @Test
    void aFileViewNeverLoadedIsNotSyncedAndSaysWhy(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("lab.json");
        ClusterViewSource s = ClusterViewProducer.namedSource("lab", cluster("file", null, file.toString()),
                validator, codec);
        NamedClusterViews views = new NamedClusterViews(Map.of("lab", s));
        assertThat(views.notSynced("lab")).singleElement().asString().contains("does not exist");
        Files.writeString(file, "{\"nodes\": [{\"metadata\": {\"name\": \"n1\"}, \"status\": {\"allocatable\": "
                + "{\"cpu\": \"4\"}}}]}");
        s.current();
        assertThat(views.notSynced("lab")).isEmpty();
        assertThat(views.watches("lab")).isTrue();
        assertThat(views.watches("other")).isFalse();
        assertThat(views.notSynced("other")).isNotEmpty();
    }

    @Test
    void badKeysStopStartupNamingTheKey() {
        assertThatThrownBy(() -> ClusterViewProducer.namedSource("Lab_1", cluster("file", null, "x"), validator,
                codec)).hasMessageContaining("muster.clusters.Lab_1").hasMessageContaining("DNS label");
        assertThatThrownBy(() -> ClusterViewProducer.namedSource("lab", cluster("s3", null, null), validator, codec))
                .hasMessage("muster.clusters.lab.source must be file or kubernetes, got \"s3\"");
        assertThatThrownBy(() -> ClusterViewProducer.namedSource("lab", cluster("file", null, null), validator,
                codec)).hasMessageContaining("muster.clusters.lab.file");
    }
}
