package dev.muster.adapter.clusterview;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.DraMapper;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * {@code muster.cluster-view.source=file}: the {@code snapshot} object of a {@code POST /v1/decisions} request
 * (JSON, or YAML when the name ends in {@code .yaml}/{@code .yml}), reloaded when it changes. Its DRA lists
 * ({@code deviceClasses}, {@code resourceSlices}, {@code resourceClaims}, {@code resourceClaimTemplates}) become the
 * view's {@link DraObjects}, with CEL selectors compiled as for a REST request.
 * <p>
 * Change detection is on access and deterministic: at most once per {@code checkIntervalMillis} (0 = on every
 * access), {@link #current()} compares the file's modification time, size and file key with the last load and
 * reloads when any differs. A file that cannot be read, decoded or compiled is logged and ignored: the previous
 * view stays (generation unchanged) until a good file appears.
 */
public final class FileClusterViewSource implements ClusterViewSource {
    private static final Logger LOG = Logger.getLogger(FileClusterViewSource.class);

    private final Path file;
    private final long checkIntervalMillis;
    private final LongSupplier clock;
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final SnapshotCheck check;

    private volatile ClusterView view;
    private long lastCheck = Long.MIN_VALUE;
    private Stamp loaded;
    private long generation;

    /** Validates a decoded snapshot before it becomes the view; returns null when valid, else the reasons. */
    @FunctionalInterface
    public interface SnapshotCheck {
        String problems(RequestDocument.Snapshot snapshot);
    }

    public FileClusterViewSource(Path file, long checkIntervalMillis) {
        this(file, checkIntervalMillis, System::currentTimeMillis, FileClusterViewSource::minimalCheck);
    }

    public FileClusterViewSource(Path file, long checkIntervalMillis, LongSupplier clock, SnapshotCheck check) {
        this.file = Objects.requireNonNull(file, "file");
        this.checkIntervalMillis = checkIntervalMillis;
        this.clock = clock;
        this.check = check;
        this.view = ClusterView.empty(describe());
        refresh(true);
    }

    private String describe() {
        return "file " + file;
    }

    @Override
    public ClusterView current() {
        refresh(false);
        return view;
    }

    /** The generation loaded so far; does not look at the file ({@link #current()} does). */
    @Override
    public long latestGeneration() {
        return view.generation();
    }

    private synchronized void refresh(boolean force) {
        long now = clock.getAsLong();
        if (!force && checkIntervalMillis > 0 && lastCheck != Long.MIN_VALUE && now - lastCheck < checkIntervalMillis) {
            return;
        }
        lastCheck = now;
        Stamp stamp;
        try {
            stamp = Stamp.of(file);
        } catch (NoSuchFileException e) {
            if (loaded != null || force) {
                LOG.warnf("cluster view %s does not exist; keeping the view of generation %d", file, generation);
            }
            loaded = null;
            return;
        } catch (IOException e) {
            LOG.warnf("cluster view %s cannot be read (%s); keeping the view of generation %d", file, e, generation);
            return;
        }
        if (stamp.equals(loaded)) {
            return;
        }
        loaded = stamp;
        try {
            Loaded l = load();
            ClusterState state = l.state();
            generation++;
            view = ClusterView.of(generation, state, l.dra(), describe());
            LOG.infof("cluster view %s loaded: generation %d, %d nodes, %d pods, %d pod groups, %d resource slices, "
                            + "%d resource claims", file, generation, state.nodes().size(), state.pods().size(),
                    state.podGroups().size(), l.dra().resourceSlices().size(), l.dra().resourceClaims().size());
        } catch (InvalidSnapshotException e) {
            LOG.errorf("cluster view %s rejected, keeping the view of generation %d: %s", file, generation,
                    e.getMessage());
        }
    }

    private record Loaded(ClusterState state, DraObjects dra) {
    }

    private Loaded load() throws InvalidSnapshotException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new InvalidSnapshotException("cannot read: " + e);
        }
        RequestDocument.Snapshot snapshot;
        try {
            String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
            if (name.endsWith(".yaml") || name.endsWith(".yml")) {
                JsonNode tree = new YAMLMapper().readTree(bytes);
                bytes = JsonMapper.builder().build().writeValueAsBytes(tree);
            }
            snapshot = codec.readJson(bytes, RequestDocument.Snapshot.class);
        } catch (DecodeException e) {
            throw new InvalidSnapshotException(e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw new InvalidSnapshotException("not a YAML document: " + e.getMessage());
        }
        if (snapshot == null) {
            throw new InvalidSnapshotException("the file holds no snapshot object");
        }
        String problems = check.problems(snapshot);
        if (problems != null) {
            throw new InvalidSnapshotException(problems);
        }
        try {
            DraObjects dra = new DraMapper(CelSelectors.shared()::compile).map(snapshot.deviceClasses(),
                    snapshot.resourceSlices(), snapshot.resourceClaims(), snapshot.resourceClaimTemplates());
            return new Loaded(KubeMapper.toClusterState(snapshot), dra);
        } catch (RuntimeException e) {
            throw new InvalidSnapshotException("cannot compile the snapshot: " + e);
        }
    }

    /** Until the shared validator is wired in: the one rule the mapper cannot survive without. */
    static String minimalCheck(RequestDocument.Snapshot s) {
        return s.nodes() == null ? "snapshot.nodes: Required value" : null;
    }

    private record Stamp(long modifiedNanos, long size, Object fileKey) {
        static Stamp of(Path p) throws IOException {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
            return new Stamp(a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS), a.size(),
                    a.fileKey());
        }
    }

    private static final class InvalidSnapshotException extends Exception {
        InvalidSnapshotException(String message) {
            super(message);
        }
    }
}
