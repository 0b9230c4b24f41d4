package dev.muster.adapter.clusterview;

import dev.muster.adapter.validation.Cause;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.validation.RequestValidator;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Chooses the extender's cluster view source from {@code muster.cluster-view.source} ({@code none}, {@code file},
 * {@code kubernetes}; env {@code MUSTER_CLUSTER_VIEW_SOURCE}) and starts it with the application, so a Kubernetes
 * watch is syncing before the first scheduler call.
 */
@Singleton
public class ClusterViewProducer {
    private static final Logger LOG = Logger.getLogger(ClusterViewProducer.class);

    @jakarta.inject.Inject
    ClusterViewConfig config;

    @Produces
    @Singleton
    ClusterViewSource clusterViewSource(RequestValidator validator) {
        String source = config.source();
        Optional<String> file = config.file();
        Duration fileCheckInterval = config.fileCheckInterval();
        String s = source.trim().toLowerCase(Locale.ROOT);
        switch (s) {
            case "none":
                return new ClusterViewSource.None();
            case "file":
                if (file.isEmpty() || file.get().isBlank()) {
                    throw new IllegalStateException("muster.cluster-view.source=file needs muster.cluster-view.file "
                            + "(env MUSTER_CLUSTER_VIEW_FILE): the path of a JSON or YAML snapshot object");
                }
                LOG.infof("extender cluster view: file %s, checked for changes every %s", file.get(),
                        fileCheckInterval);
                return new FileClusterViewSource(Path.of(file.get()), fileCheckInterval.toMillis(),
                        System::currentTimeMillis, snapshot -> problems(validator.validateSnapshot(snapshot, "snapshot")));
            case "kubernetes":
                LOG.info("extender cluster view: Kubernetes API (in-cluster service account or kubeconfig)");
                return KubernetesClusterViewSource.start();
            default:
                throw new IllegalStateException("muster.cluster-view.source must be none, file or kubernetes, got \""
                        + source + "\"");
        }
    }

    /** The validator's causes as one log line (null when valid), the way the REST surface words them. */
    static String problems(Causes causes) {
        if (causes.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (Cause c : causes.list()) {
            sb.append(sb.length() == 0 ? "" : "; ").append(c.summary());
        }
        if (causes.total() > causes.list().size()) {
            sb.append("; and ").append(causes.total() - causes.list().size()).append(" more");
        }
        return sb.toString();
    }

    void close(@Disposes ClusterViewSource s) {
        s.close();
    }

    void onStart(@Observes StartupEvent ev, ClusterViewSource s) {
        s.current();
    }
}
