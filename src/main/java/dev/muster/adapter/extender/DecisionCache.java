package dev.muster.adapter.extender;

import dev.muster.core.decision.DecisionResult;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's answer for one cluster view generation plus whatever the request changed in it, computed once and
 * shared by every member's filter and prioritize call (so all members of a gang read the same plan, and a
 * 5,000-node decision is paid once per group, not once per pod). Concurrent callers with the same key wait for
 * the one computation. Bounded: the least recently used keys are dropped beyond {@code capacity}, so old
 * generations age out.
 */
final class DecisionCache {

    /**
     * @param generation  the view generation
     * @param podOverlay  the request's pod when it differs from (or is missing in) the view, else null
     * @param nodeOverlay the request's nodes that differ from (or are missing in) the view, sorted by name
     */
    record Key(long generation, Pod podOverlay, List<Node> nodeOverlay) {
    }

    private final int capacity;
    private final Map<Key, FutureTask<DecisionResult>> entries;
    private final AtomicLong computed = new AtomicLong();

    DecisionCache(int capacity) {
        this.capacity = Math.max(1, capacity);
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, FutureTask<DecisionResult>> eldest) {
                return size() > DecisionCache.this.capacity;
            }
        };
    }

    DecisionResult get(Key key, Callable<DecisionResult> compute) {
        FutureTask<DecisionResult> task;
        boolean mine = false;
        synchronized (this) {
            task = entries.get(key);
            if (task == null) {
                task = new FutureTask<>(compute);
                entries.put(key, task);
                mine = true;
            }
        }
        if (mine) {
            computed.incrementAndGet();
            task.run();
        }
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a decision", e);
        } catch (ExecutionException e) {
            synchronized (this) {
                entries.remove(key, task);
            }
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(c);
        }
    }

    /** How many decisions were computed (not served from the cache) since start. */
    long computedCount() {
        return computed.get();
    }
}
