package dev.muster.core.dra;

import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.NodeSelectors;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * First fits shared between nodes whose devices look and are held alike ({@link DeviceStates}), when every pool is
 * local to one node: the allocator's search on such nodes walks the same devices in the same order and reads the same
 * holders, so it gives the same answer up to the names of the node and its pools. An answer found on one node is
 * carried to the other by position (pool, slice, device), checked device by device; where the check fails, or the
 * answer names a share or an error, the allocator runs.
 */
final class AlikeNodes {
    /** Distinct (state, specs) kept at most per decision run; beyond it answers are no longer kept. */
    static final int MAX_KEPT = 1 << 16;

    private final Map<Key, Found> kept = new ConcurrentHashMap<>();

    /** A node's device state and the claims' specs, by identity and in order. */
    record Key(Object state, ResourceClaimSpec[] specs) {
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key k) || k.specs.length != specs.length) {
                return false;
            }
            for (int i = 0; i < specs.length; i++) {
                if (k.specs[i] != specs[i]) {
                    return false;
                }
            }
            return k.state.equals(state);
        }

        @Override
        public int hashCode() {
            int h = state.hashCode();
            for (ResourceClaimSpec s : specs) {
                h = h * 31 + System.identityHashCode(s);
            }
            return h;
        }
    }

    /**
     * An answer and the node and pools it was found on. {@code outcome} as it is says what it says of an alike node
     * (fits or not, and why), but an {@link Allocator.Allocated} names that node's devices: {@link #carriedTo} gives
     * a node its own.
     */
    record Found(List<NodePool> pools, Node node, Allocator.Outcome outcome) {
        /** The answer carried to {@code here}, seeing {@code to}: its own devices; null when it does not carry. */
        Allocator.Outcome carriedTo(List<NodePool> to, Node here) {
            if (outcome instanceof Allocator.Unfit || node == here) {
                return outcome;
            }
            return carry((Allocator.Allocated) outcome, pools, node, to, here);
        }
    }

    /** The answer an alike node got, or null when none is known. */
    Found find(Key key) {
        return kept.get(key);
    }

    /** Keeps an answer the allocator found on the node, when it is one that carries. */
    void keep(Key key, List<NodePool> pools, Node node, Allocator.Outcome o) {
        if (kept.size() >= MAX_KEPT) {
            return;
        }
        if (o instanceof Allocator.Unfit || o instanceof Allocator.Allocated a && carries(a)) {
            kept.putIfAbsent(key, new Found(pools, node, o));
        }
    }

    /** No share (its ID names the claim), and every picked device known. */
    private static boolean carries(Allocator.Allocated a) {
        if (a.devices() == null) {
            return false;
        }
        for (AllocationResult r : a.results()) {
            for (AllocationResult.DeviceResult d : r.devices()) {
                if (d.shareID() != null) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The answer found on {@code fromNode} with each device replaced by its counterpart on {@code node}. */
    private static Allocator.Allocated carry(Allocator.Allocated a, List<NodePool> from, Node fromNode,
                                             List<NodePool> to, Node node) {
        if (from.size() != to.size()) {
            return null;
        }
        // arrays wrapped by List.of: the records' List.copyOf keeps them as they are (no second copy)
        int n = a.results().size();
        AllocationResult[] results = new AllocationResult[n];
        PoolDevice[][] devices = new PoolDevice[n][];
        List<NodeSelectorTerm> here = null; // the node's name selector, made once for all the results
        for (int i = 0; i < n; i++) {
            AllocationResult r = a.results().get(i);
            PoolDevice[] picked = a.devicesOf(i);
            PoolDevice[] mine = new PoolDevice[picked.length];
            AllocationResult.DeviceResult[] out = new AllocationResult.DeviceResult[picked.length];
            for (int m = 0; m < picked.length; m++) {
                PoolDevice q = counterpart(picked[m], from, to);
                AllocationResult.DeviceResult d = r.devices().get(m);
                if (q == null || !q.id().device().equals(d.device()) || !q.id().driver().equals(d.driver())) {
                    return null;
                }
                mine[m] = q;
                out[m] = new AllocationResult.DeviceResult(d.request(), d.driver(), q.id().pool(), q.id().device(),
                        d.adminAccess(), d.tolerations(), d.shareID(), d.consumedCapacity(), d.bindingConditions(),
                        d.bindingFailureConditions());
            }
            List<NodeSelectorTerm> selector = r.nodeSelector();
            if (selector != null) {
                if (!selectsByName(selector, fromNode.name())) {
                    return null;
                }
                if (here == null) {
                    here = nameSelector(node);
                }
                selector = here;
            }
            results[i] = new AllocationResult(List.of(out), r.config(), selector);
            devices[i] = mine;
        }
        return new Allocator.Allocated(List.of(results), a.steps(), List.of(devices));
    }

    /** The selector {@link #nameSelector} makes for a node of that name (compared without making one). */
    static boolean selectsByName(List<NodeSelectorTerm> selector, String name) {
        if (selector.size() != 1) {
            return false;
        }
        NodeSelectorTerm t = selector.get(0);
        if (!t.matchExpressions().isEmpty() || t.matchFields().size() != 1) {
            return false;
        }
        NodeSelectorRequirement r = t.matchFields().get(0);
        return r.operator() == NodeSelectorRequirement.Operator.In && NodeSelectors.FIELD_NODE_NAME.equals(r.key())
                && r.values().size() == 1 && r.values().get(0).equals(name);
    }

    static List<NodeSelectorTerm> nameSelector(Node node) {
        return List.of(new NodeSelectorTerm(null, List.of(new NodeSelectorRequirement(
                NodeSelectors.FIELD_NODE_NAME, NodeSelectorRequirement.Operator.In, List.of(node.name())))));
    }

    /** The device at the same pool, slice and position among {@code to}'s pools; null when the shapes differ. */
    private static PoolDevice counterpart(PoolDevice d, List<NodePool> from, List<NodePool> to) {
        for (int j = 0; j < from.size(); j++) {
            NodePool f = from.get(j);
            if (f.pool() != d.pool()) {
                continue;
            }
            NodePool t = to.get(j);
            if (t.slices().size() != f.slices().size()) {
                return null;
            }
            for (int k = 0; k < f.slices().size(); k++) {
                PoolDevice[] fd = f.devices(k);
                for (int x = 0; x < fd.length; x++) {
                    if (fd[x] == d) {
                        PoolDevice[] td = t.devices(k);
                        return td.length == fd.length ? td[x] : null;
                    }
                }
            }
            return null;
        }
        return null;
    }
}
