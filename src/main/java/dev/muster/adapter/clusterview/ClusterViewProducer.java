package dev.muster.adapter.clusterview;

import dev.muster.adapter.validation.Cause;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;
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
    ClusterViewSource clusterViewSource(RequestValidator validator, KubeCodec codec) {
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
                            + "(env MUSTER_CLUSTER_VIEW_FILE): the path of a JSON or YAML snapshot file, or of a "
                            + "directory of them");
                }
                FileClusterViewSource.Limits limits = fileLimits(config, validator.limits(), codec.limits());
                RequestValidator viewValidator = new RequestValidator(limits.counts());
                LOG.infof("extender cluster view: file %s, checked for changes every %s; at most %d bytes per file, "
                                + "%d nodes, %d pods; %d file(s) read at once", file.get(), fileCheckInterval,
                        limits.maxFileBytes(), limits.counts().maxNodes(), limits.counts().maxPods(),
                        limits.readThreads());
                return new FileClusterViewSource(Path.of(file.get()), fileCheckInterval.toMillis(),
                        System::currentTimeMillis,
                        (snapshot, where) -> problems(viewValidator.validateSnapshot(snapshot, "snapshot"), where),
                        limits);
            case "kubernetes":
                LOG.info("extender cluster view: Kubernetes API (in-cluster service account or kubeconfig)");
                return KubernetesClusterViewSource.start();
            default:
                throw new IllegalStateException("muster.cluster-view.source must be none, file or kubernetes, got \""
                        + source + "\"");
        }
    }

    /**
     * The file source's limits: {@code muster.cluster-view.file-max-size} and {@code muster.cluster-view.max-*} where
     * set, else the request limits ({@code muster.limits.*}) the REST surface applies.
     */
    static FileClusterViewSource.Limits fileLimits(ClusterViewConfig config, ValidationLimits request,
                                                   KubeCodec.Limits parser) {
        long maxFile = config.fileMaxSize().map(m -> m.asLongValue()).orElse(parser.maxDocumentLength());
        if (maxFile < 1 || maxFile > SnapshotFiles.MAX_FILE_BYTES) {
            throw new IllegalStateException("muster.cluster-view.file-max-size must be 1 to " + SnapshotFiles.MAX_FILE_BYTES
                    + " bytes (a file is read into one array), got " + maxFile + ": give a larger snapshot as "
                    + "several files of a directory");
        }
        ValidationLimits counts = new ValidationLimits(positive(config.maxNodes(), request.maxNodes(), "max-nodes"),
                positive(config.maxPods(), request.maxPods(), "max-pods"),
                positive(config.maxPodGroups(), request.maxPodGroups(), "max-pod-groups"),
                positive(config.maxObjects(), request.maxObjects(), "max-objects"), request.maxCauses(),
                positive(config.maxHyperNodes(), request.maxHyperNodes(), "max-hyper-nodes"));
        int threads = config.fileReadThreads().orElse(FileClusterViewSource.Limits.defaultReadThreads());
        if (threads < 1 || threads > 64) {
            throw new IllegalStateException("muster.cluster-view.file-read-threads must be 1 to 64, got " + threads);
        }
        return new FileClusterViewSource.Limits(maxFile, parser, counts, threads);
    }

    private static int positive(java.util.OptionalInt set, int otherwise, String name) {
        int v = set.orElse(otherwise);
        if (v < 1) {
            throw new IllegalStateException("muster.cluster-view." + name + " must be at least 1, got " + v);
        }
        return v;
    }

    /** The validator's causes as one log line (null when valid), the way the REST surface words them. */
    static String problems(Causes causes) {
        return problems(causes, f -> f);
    }

    /** As {@link #problems(Causes)}, each cause's field rendered by {@code where} (the file it came from). */
    static String problems(Causes causes, java.util.function.UnaryOperator<String> where) {
        if (causes.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (Cause c : causes.list()) {
            String summary = c.summary();
            if (c.field() != null && summary.startsWith(c.field())) {
                summary = where.apply(c.field()) + summary.substring(c.field().length());
            }
            sb.append(sb.length() == 0 ? "" : "; ").append(summary);
        }
        if (causes.total() > causes.list().size()) {
            sb.append("; and ").append(causes.total() - causes.list().size()).append(" more");
        }
        return sb.toString();
    }

    void close(@Disposes ClusterViewSource s) {
        s.close();
    }

    void onStart(@Observes StartupEvent ev, ClusterViewSource s, NamedClusterViews named) {
        s.current();
        for (String name : named.names()) {
            named.source(name).current();
        }
    }

    @jakarta.inject.Inject
    ClustersConfig clusters;

    /** The clusters watched by name ({@code muster.clusters.<name>.*}), started with the application. */
    @Produces
    @Singleton
    NamedClusterViews namedClusterViews(RequestValidator validator, KubeCodec codec) {
        java.util.Map<String, ClusterViewSource> sources = new java.util.TreeMap<>();
        try {
            for (java.util.Map.Entry<String, ClustersConfig.Cluster> e : clusters.all().entrySet()) {
                sources.put(e.getKey(), namedSource(e.getKey(), e.getValue(), validator, codec));
            }
        } catch (RuntimeException e) {
            sources.values().forEach(ClusterViewSource::close);
            throw e;
        }
        return new NamedClusterViews(sources);
    }

    static ClusterViewSource namedSource(String name, ClustersConfig.Cluster c, RequestValidator validator,
                                         KubeCodec codec) {
        String key = "muster.clusters." + name;
        if (!dev.muster.adapter.validation.Names.isDnsLabel(name)) {
            throw new IllegalStateException(key + ": a watched cluster's name must be a DNS label (lower-case "
                    + "letters, digits and '-', at most 63 characters)");
        }
        String s = c.source().trim().toLowerCase(Locale.ROOT);
        switch (s) {
            case "file" -> {
                if (c.file().isEmpty() || c.file().get().isBlank()) {
                    throw new IllegalStateException(key + ".source=file needs " + key + ".file: the path of a JSON "
                            + "or YAML snapshot file, or of a directory of them");
                }
                FileClusterViewSource.Limits limits = new FileClusterViewSource.Limits(
                        codec.limits().maxDocumentLength(), codec.limits(), validator.limits());
                LOG.infof("watched cluster %s: file %s, checked for changes every %s", name, c.file().get(),
                        c.fileCheckInterval());
                return new FileClusterViewSource(Path.of(c.file().get()), c.fileCheckInterval().toMillis(),
                        System::currentTimeMillis,
                        (snapshot, where) -> problems(validator.validateSnapshot(snapshot, "snapshot"), where),
                        limits);
            }
            case "kubernetes" -> {
                LOG.infof("watched cluster %s: Kubernetes API, kubeconfig context %s", name,
                        c.context().orElse("(current, or in-cluster)"));
                io.fabric8.kubernetes.client.Config config = io.fabric8.kubernetes.client.Config.autoConfigure(
                        c.context().orElse(null));
                return KubernetesClusterViewSource.start(
                        new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build(), true);
            }
            default -> throw new IllegalStateException(key + ".source must be file or kubernetes, got \""
                    + c.source() + "\"");
        }
    }

    void closeNamed(@Disposes NamedClusterViews v) {
        v.close();
    }
}
