package dev.muster.adapter.extender;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.ClusterViewSource;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The cluster views the extender answers from, each prepared before a call reads it: compiled into the engine's
 * snapshot and its decision made and cached ({@link #onPrepare}), off the request path, with a bounded staleness.
 *
 * <h2>Why prepare ahead, and not only compile incrementally</h2>
 * A view generation is one compiled {@code ClusterSnapshot} plus one decision over every pending group. The compile
 * is derived from the previous view's where the source keeps unchanged objects ({@code ClusterSnapshot.next}), but
 * the decision is whole-cluster by nature: a pod added anywhere can change where a gang goes, so it is made again
 * per generation, and on 100,000 nodes it costs more than a call may take. So a single worker thread turns the
 * newest generation into a prepared view, coalescing whatever arrived meanwhile (a burst of 1,000 pod events costs
 * one preparation, not 1,000), and calls read the newest prepared view: a steady call and the first call after a
 * change cost the same (a cache hit). Decisions stay deterministic per generation: a call's answer is the decision
 * of the generation it read, the same for every member reading it.
 *
 * <h2>Bounded staleness</h2>
 * A call answers from an older prepared view only while the newer generation has been known for less than
 * {@code maxStaleness}; past that it waits for the worker. {@code maxStaleness = 0} is synchronous: every call reads
 * the source's current view (compiling and deciding it on the first call of a generation), as a small cluster wants.
 * A call for a pod the prepared view does not know yet (or knows differently) while the source is ahead waits for the
 * newest view too ({@link #awaitLatest()}), rather than deciding a view with that pod merged in.
 * <p>
 * The file source finds a changed file when {@code current()} is called: in asynchronous mode only the worker calls
 * it (every {@value #POLL_MILLIS} ms), so reading a large file never happens on a call.
 */
public final class PreparedViews implements Supplier<WatchedClusterVersion>, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(PreparedViews.class);
    static final long POLL_MILLIS = 50;

    private final Supplier<WatchedClusterVersion> current;
    private final LongSupplier latest;
    private final long maxStalenessNanos;
    private final Object lock = new Object();
    private volatile Consumer<WatchedClusterVersion> preparer = WatchedClusterVersion::compiled;
    private volatile WatchedClusterVersion ready;
    private long behindSince = -1;
    private boolean wake;
    private boolean closed;
    private long prepared;
    private Thread worker;

    public PreparedViews(ClusterViewSource source, Duration maxStaleness) {
        this(source::current, source::latestGeneration, maxStaleness);
    }

    /**
     * @param current the source's current view (may assemble or load it)
     * @param latest  the generation {@code current} would answer with, cheaply
     */
    public PreparedViews(Supplier<WatchedClusterVersion> current, LongSupplier latest, Duration maxStaleness) {
        this.current = current;
        this.latest = latest;
        this.maxStalenessNanos = Math.max(0, maxStaleness.toNanos());
    }

    /** Synchronous: every call reads the source's current view. */
    public static PreparedViews synchronous(Supplier<WatchedClusterVersion> current) {
        return new PreparedViews(current, () -> current.get().generation(), Duration.ZERO);
    }

    /** What preparing a view means beyond compiling it (the extender: making and caching its decision). */
    public void onPrepare(Consumer<WatchedClusterVersion> prepare) {
        this.preparer = v -> {
            v.compiled();
            prepare.accept(v);
        };
    }

    public boolean synchronous() {
        return maxStalenessNanos == 0;
    }

    /** The view a call reads: the newest prepared one, or the source's newest once it is too long behind. */
    @Override
    public WatchedClusterVersion get() {
        if (synchronous()) {
            return current.get();
        }
        WatchedClusterVersion r = ready;
        if (r == null) {
            return awaitLatest();
        }
        long l = latest.getAsLong();
        if (l == r.generation()) {
            return r;
        }
        long now = System.nanoTime();
        synchronized (lock) {
            if (behindSince < 0) {
                behindSince = now;
            }
            wake = true;
            lock.notifyAll();
            if (now - behindSince <= maxStalenessNanos) {
                return ready;
            }
        }
        return awaitLatest();
    }

    /** Whether the source has a newer generation than {@code view}. */
    public boolean behind(WatchedClusterVersion view) {
        return latest.getAsLong() != view.generation();
    }

    /**
     * Waits until the source's generation as of now is prepared, and returns that view (or a newer one).
     * Synchronous mode prepares it on this thread.
     */
    public WatchedClusterVersion awaitLatest() {
        if (synchronous()) {
            WatchedClusterVersion v = current.get();
            preparer.accept(v);
            return v;
        }
        long target = latest.getAsLong();
        synchronized (lock) {
            startWorker();
            while (!closed && (ready == null || ready.generation() < target)) {
                wake = true;
                lock.notifyAll();
                try {
                    lock.wait(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            return ready != null ? ready : current.get();
        }
    }

    /** Views prepared so far. */
    public long prepared() {
        synchronized (lock) {
            return prepared;
        }
    }

    private void startWorker() {
        if (worker == null && !closed) {
            worker = new Thread(this::work, "muster-extender-views");
            worker.setDaemon(true);
            worker.start();
        }
    }

    private void work() {
        while (true) {
            synchronized (lock) {
                if (!wake && !closed) {
                    try {
                        lock.wait(POLL_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                wake = false;
                if (closed) {
                    return;
                }
            }
            WatchedClusterVersion v;
            try {
                v = current.get();
                WatchedClusterVersion r = ready;
                if (r == null || v.generation() != r.generation()) {
                    prepare(v);
                }
            } catch (RuntimeException e) {
                LOG.errorf(e, "extender cluster view: preparing a view failed");
                continue;
            }
            synchronized (lock) {
                ready = v;
                if (latest.getAsLong() == v.generation()) {
                    behindSince = -1;
                } else {
                    wake = true;
                }
                lock.notifyAll();
            }
        }
    }

    private void prepare(WatchedClusterVersion v) {
        long start = System.nanoTime();
        try {
            preparer.accept(v);
        } catch (RuntimeException e) {
            // The calls reading this view decide it themselves and report what fails.
            LOG.warnf("extender cluster view: generation %d could not be decided ahead: %s", v.generation(), e);
        }
        synchronized (lock) {
            prepared++;
        }
        LOG.debugf("extender cluster view: generation %d prepared in %d ms", v.generation(),
                (System.nanoTime() - start) / 1_000_000);
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
        }
    }
}
