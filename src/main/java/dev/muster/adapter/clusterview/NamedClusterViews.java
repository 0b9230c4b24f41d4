package dev.muster.adapter.clusterview;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The clusters the service watches by name ({@code muster.clusters.<name>.*}), each a {@link ClusterViewSource} of
 * its own. A view is synced once its source loaded what it watches (every informer's initial list, or the file
 * without an error); until then a choice on it is refused rather than answered from a partial cluster.
 */
public final class NamedClusterViews implements AutoCloseable {
    public static final NamedClusterViews NONE = new NamedClusterViews(Map.of());

    private final Map<String, ClusterViewSource> sources;

    /** @param sources by cluster name; iterated in name order */
    public NamedClusterViews(Map<String, ClusterViewSource> sources) {
        this.sources = Collections.unmodifiableMap(new TreeMap<>(sources));
    }

    public boolean watches(String name) {
        return sources.containsKey(name);
    }

    /** The names watched, sorted. */
    public Set<String> names() {
        return sources.keySet();
    }

    /** The source of that name, or null. */
    public ClusterViewSource source(String name) {
        return sources.get(name);
    }

    /**
     * What the named view still waits for: the kinds not listed yet, or the file's error while nothing was ever
     * loaded from it; empty once synced.
     */
    public List<String> notSynced(String name) {
        ClusterViewSource s = sources.get(name);
        if (s == null) {
            return List.of("a source (no cluster of that name is watched)");
        }
        List<String> pending = new ArrayList<>(s.notSynced());
        if (s instanceof FileClusterViewSource f && f.latestGeneration() == 0) {
            pending.add("a readable snapshot" + f.lastError().map(e -> " (" + e + ")").orElse(""));
        }
        return pending;
    }

    @Override
    public void close() {
        for (ClusterViewSource s : sources.values()) {
            s.close();
        }
    }
}
