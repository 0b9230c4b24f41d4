package dev.muster.adapter.clusterview;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.DraMapper;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.ValidationLimits;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * {@code muster.cluster-view.source=file}: a snapshot file, or a directory of them, reloaded when it changes.
 * <p>
 * A file is the {@code snapshot} object of a {@code POST /v1/decisions} request or what {@code kubectl get -o json}
 * prints ({@link SnapshotPart}); JSON, or YAML when its name ends in {@code .yaml}/{@code .yml}. A directory's
 * {@code .json}/{@code .yaml}/{@code .yml} files are merged into one snapshot ({@link SnapshotFiles}), so a cluster
 * too large for one file (a file is read into one array, and stays under {@code maxFileBytes}) is given in parts:
 * {@code nodes.json}, {@code pods-000.json}, ... The merged snapshot is validated as one request (paths reported
 * with the file they came from), its objects put in key order (namespace, then name, as the watch source keeps
 * them: the same objects give the same view however they are split), and compiled; its DRA lists become the view's
 * {@link DraObjects}, with CEL selectors compiled as for a REST request. Up to {@link Limits#readThreads()} files are
 * read and decoded at once, and merged in name order all the same.
 * <p>
 * Change detection is on access and deterministic: at most once per {@code checkIntervalMillis} (0 = on every
 * access), {@link #current()} compares each file's modification time, size and file key, and the directory's list
 * of files, with the last load, and reloads everything when any differs. Nodes and pods equal to the previous
 * view's are kept as the previous instances, so compiling the new view reuses what the previous one compiled for
 * them ({@link WatchedClusterVersion#compiled()}). A snapshot that cannot be read, decoded, validated or compiled, or
 * that exceeds a limit, is logged and ignored: the previous view stays (generation unchanged) until the files
 * change again.
 */
public final class FileClusterViewSource implements ClusterViewSource {
    private static final Logger LOG = Logger.getLogger(FileClusterViewSource.class);

    private final Path path;
    private final long checkIntervalMillis;
    private final LongSupplier clock;
    private final SnapshotCheck check;
    private final SnapshotFiles files;

    private volatile WatchedClusterVersion view;
    private long lastCheck = Long.MIN_VALUE;
    private List<SnapshotFiles.Stamp> loaded;
    private long generation;
    private volatile String lastError;

    /** Validates a decoded snapshot before it becomes the view; returns null when valid, else the reasons. */
    @FunctionalInterface
    public interface SnapshotCheck {
        /**
         * @param where renders a field path of {@code snapshot} ({@code snapshot.pods[3].metadata.name}) as the
         *              file and place the object came from; use it for every path reported
         */
        String problems(RequestDocument.Snapshot snapshot, UnaryOperator<String> where);
    }

    /**
     * What the source reads at most.
     *
     * @param maxFileBytes the largest file (at most 2 GiB less 8 bytes: one file is read into one array)
     * @param codec        parser limits of each file (its document length is {@code maxFileBytes})
     * @param counts       the most objects of each kind in all files together
     * @param readThreads  the most files of a directory read and decoded at once (each holds its bytes and its
     *                     decoded objects until merged)
     */
    public record Limits(long maxFileBytes, KubeCodec.Limits codec, ValidationLimits counts, int readThreads) {
        public static final Limits DEFAULT = new Limits(KubeCodec.Limits.DEFAULT.maxDocumentLength(),
                KubeCodec.Limits.DEFAULT, ValidationLimits.DEFAULT);

        /** With {@link #defaultReadThreads()}. */
        public Limits(long maxFileBytes, KubeCodec.Limits codec, ValidationLimits counts) {
            this(maxFileBytes, codec, counts, defaultReadThreads());
        }

        /** Two files at once where there are two processors or more: decoding is most of a load. */
        public static int defaultReadThreads() {
            return Math.min(2, Runtime.getRuntime().availableProcessors());
        }
    }

    public FileClusterViewSource(Path path, long checkIntervalMillis) {
        this(path, checkIntervalMillis, System::currentTimeMillis, FileClusterViewSource::minimalCheck,
                Limits.DEFAULT);
    }

    public FileClusterViewSource(Path path, long checkIntervalMillis, LongSupplier clock, SnapshotCheck check,
                                 Limits limits) {
        this.path = Objects.requireNonNull(path, "path");
        this.checkIntervalMillis = checkIntervalMillis;
        this.clock = clock;
        this.check = check;
        this.files = new SnapshotFiles(path, limits.maxFileBytes(), limits.codec(), limits.counts(),
                limits.readThreads());
        this.view = WatchedClusterVersion.empty(describe());
        refresh(true);
    }

    private String describe() {
        return (files.isDirectory() ? "directory " : "file ") + path;
    }

    @Override
    public WatchedClusterVersion current() {
        refresh(false);
        return view;
    }

    /** The generation loaded so far; does not look at the files ({@link #current()} does). */
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
        List<SnapshotFiles.Stamp> stamps;
        try {
            stamps = files.stamps();
        } catch (NoSuchFileException e) {
            if (loaded != null || force) {
                LOG.warnf("cluster view %s does not exist; keeping the view of generation %d", path, generation);
            }
            loaded = null;
            lastError = path + " does not exist";
            return;
        } catch (IOException e) {
            LOG.warnf("cluster view %s cannot be read (%s); keeping the view of generation %d", path, e, generation);
            lastError = path + " cannot be read: " + e.getMessage();
            return;
        }
        if (stamps.equals(loaded)) {
            return;
        }
        loaded = stamps;
        long start = System.nanoTime();
        try {
            SnapshotFiles.Merged merged = files.read(stamps);
            String problems = check.problems(merged.snapshot(), merged::where);
            if (problems != null) {
                throw new InvalidSnapshotException(problems);
            }
            int fileCount = merged.files();
            long bytes = merged.bytes();
            String skipped = merged.skipped().isEmpty() ? ""
                    : "; skipped items of kinds a snapshot does not hold: " + merged.skipped();
            RequestDocument.Snapshot snapshot = sorted(merged.snapshot());
            merged = null; // the paths are no longer needed: let the collector have them while compiling
            WatchedClusterVersion previous = view;
            DraObjects dra;
            ClusterState state;
            try {
                dra = new DraMapper(CelSelectors.shared()::compile).map(snapshot.deviceClasses(),
                        snapshot.resourceSlices(), snapshot.resourceClaims(), snapshot.resourceClaimTemplates());
                state = KubeMapper.toClusterState(snapshot);
            } catch (RuntimeException e) {
                throw new InvalidSnapshotException("cannot compile the snapshot: " + e);
            }
            snapshot = null;
            state = reuse(state, previous.state());
            generation++;
            view = new WatchedClusterVersion(generation, state, dra, describe(),
                    previous.isCompiled() ? previous : null);
            LOG.infof("cluster view %s loaded in %.1f s from %d file(s), %d bytes: generation %d, %d nodes, %d pods, "
                            + "%d pod groups, %d resource slices, %d resource claims%s", path,
                    (System.nanoTime() - start) / 1e9, fileCount, bytes, generation, state.nodes().size(),
                    state.pods().size(), state.podGroups().size(), dra.resourceSlices().size(),
                    dra.resourceClaims().size(), skipped);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            loaded = null; // read again at the next check
            LOG.warnf("cluster view %s: reading was interrupted; keeping the view of generation %d", path, generation);
            return;
        } catch (InvalidSnapshotException e) {
            lastError = e.getMessage();
            LOG.errorf("cluster view %s rejected, keeping the view of generation %d: %s", path, generation,
                    e.getMessage());
            return;
        }
        lastError = null;
    }

    /**
     * Why the files as last read did not become the view (logged as an error when it happened), or empty when they
     * did. Does not look at the files ({@link #current()} does).
     */
    public java.util.Optional<String> lastError() {
        return java.util.Optional.ofNullable(lastError);
    }

    /** The snapshot with every list in {@link SnapshotKind#order()}; the lists are the merge's own, sorted in place. */
    private static RequestDocument.Snapshot sorted(RequestDocument.Snapshot s) {
        List<?>[] lists = new List<?>[SnapshotKind.values().length];
        for (SnapshotKind k : SnapshotKind.values()) {
            List<?> l = k.of(s);
            if (l != null) {
                List<Object> copy = l instanceof ArrayList<?> ? cast(l) : new ArrayList<>(l);
                copy.sort(k.order());
                lists[k.ordinal()] = copy;
            }
        }
        return SnapshotKind.snapshot(lists);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> cast(List<?> l) {
        return (List<Object>) l;
    }

    private static final Comparator<Node> NODE_ORDER = Comparator.comparing(Node::name,
            Comparator.nullsFirst(Comparator.naturalOrder()));
    private static final Comparator<Pod> POD_ORDER = Comparator
            .comparing((Pod p) -> p.ref().namespace(), Comparator.nullsFirst(Comparator.<String>naturalOrder()))
            .thenComparing(p -> p.ref().name(), Comparator.nullsFirst(Comparator.naturalOrder()));

    /**
     * {@code fresh} with each node and pod equal to the previous view's (same key, equal record) replaced by the
     * previous instance, which {@link dev.muster.core.snapshot.ClusterSnapshot#next} recognises as unchanged. Both
     * lists are in key order, so one merge walk pairs them.
     */
    static ClusterState reuse(ClusterState fresh, ClusterState old) {
        if (old.nodes().isEmpty() && old.pods().isEmpty()) {
            return fresh;
        }
        return new ClusterState(reuse(fresh.nodes(), old.nodes(), NODE_ORDER),
                reuse(fresh.pods(), old.pods(), POD_ORDER), fresh.podGroups(), fresh.priorityClasses(),
                fresh.podDisruptionBudgets(), fresh.compositePodGroups());
    }

    private static <T> List<T> reuse(List<T> fresh, List<T> old, Comparator<T> order) {
        List<T> out = new ArrayList<>(fresh.size());
        int j = 0;
        for (T f : fresh) {
            while (j < old.size() && order.compare(old.get(j), f) < 0) {
                j++;
            }
            T o = j < old.size() ? old.get(j) : null;
            out.add(o != null && order.compare(o, f) == 0 && o.equals(f) ? o : f);
        }
        return out;
    }

    /** Until the shared validator is wired in: the one rule the mapper cannot survive without. */
    static String minimalCheck(RequestDocument.Snapshot s, UnaryOperator<String> where) {
        return s.nodes() == null ? where.apply("snapshot.nodes") + ": Required value" : null;
    }

}
