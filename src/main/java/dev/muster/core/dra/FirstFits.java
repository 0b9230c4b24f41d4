package dev.muster.core.dra;

import dev.muster.core.model.Node;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One decision run's memory of the allocator's first fits, per node and state of the pools the node sees (its own and
 * those shared with other nodes): the answer depends only on the claims' specs and on how those pools' devices are
 * held, so Reserve finds what Filter just computed, an equal member finds what the one before it got on a node nothing
 * happened to since, and a trial placement taken back and run again (the chosen candidate, assumed for good) finds
 * every answer of its first run. Answers naming a claim (a share of a device) are not remembered. A node not searched
 * yet in its present state takes the answer of a node that looks and is held alike, when every pool is local to one
 * node ({@link AlikeNodes}): of 5,000 nodes of one type, a few searches answer for all.
 *
 * <p>Kept by the node's position in the run's snapshot where the caller knows it (an array slot: no hashing of the
 * node's name, one memory read fewer on a path taken once per pod and node), else by name.
 *
 * <p>Safe for the threads of one run's parallel evaluation: a node's entries are replaced whole, never changed.
 */
final class FirstFits {
    /** How many first fits are kept per node: a node's device states within one trial and its re-run. */
    static final int PER_NODE = 16;

    private final Map<String, FirstFit[]> byNode = new ConcurrentHashMap<>();
    /** First fits shared between nodes that look and are held alike; null when not shared. */
    private final AlikeNodes alike;
    /** By position, for positions below the snapshot's node count; each slot names its node. */
    private final AtomicReferenceArray<Kept> byPosition;

    /**
     * @param nodes      the run's snapshot's node count: positions below it are kept in an array (0: all by name)
     * @param alikeNodes whether a first fit found on one node answers for nodes whose devices look and are held
     *                   alike ({@link AlikeNodes}); off, every node's first fit is searched
     */
    FirstFits(int nodes, boolean alikeNodes) {
        this.byPosition = new AtomicReferenceArray<>(Math.max(nodes, 0));
        this.alike = alikeNodes ? new AlikeNodes() : null;
    }

    /**
     * The first fit of {@code pending} on the node at {@code position} (-1: unknown), remembered or worked out.
     *
     * @param own whether the answer must name the node's own devices (to take them); else, for a verdict, an alike
     *            node's answer does as it is, not carried over ({@link AlikeNodes.Found})
     */
    Allocator.Outcome get(DeviceLedger ledger, int position, Node node, List<Allocator.PendingClaim> pending,
                          long stepBudget, boolean own) {
        NodeDevices devices = position < 0 ? ledger.index().devicesOf(node)
                : ledger.index().devicesOf(position, node);
        List<NodePool> pools = devices.pools;
        long version = ledger.nodeVersion(pools);
        boolean positioned = position >= 0 && position < byPosition.length();
        FirstFit[] kept = positioned ? keptAt(position, node) : byNode.get(node.name());
        if (kept != null) {
            for (FirstFit f : kept) {
                if (f.version == version && f.sameSpecs(pending)) {
                    return f.outcome;
                }
            }
        }
        ResourceClaimSpec[] specs = new ResourceClaimSpec[pending.size()];
        for (int i = 0; i < specs.length; i++) {
            specs[i] = pending.get(i).spec();
        }
        AlikeNodes.Key key = alike != null && ledger.index().allNodeLocal()
                ? new AlikeNodes.Key(DeviceStates.current(ledger, devices, version), specs) : null;
        AlikeNodes.Found found = key == null ? null : alike.find(key);
        if (found != null && !own) {
            return found.outcome(); // maybe an alike node's devices: not remembered for this node
        }
        Allocator.Outcome o = found == null ? null : found.carriedTo(pools, node);
        if (o == null) {
            o = Allocator.allocate(ledger, node, pools, pending, stepBudget);
            if (key != null) {
                alike.keep(key, pools, node, o);
            }
        }
        if (o instanceof Allocator.Unfit || o instanceof Allocator.Allocated a && !hasShares(a)) {
            int keep = kept == null ? 0 : Math.min(kept.length, PER_NODE - 1);
            FirstFit[] now = new FirstFit[keep + 1]; // a new array: another thread may be reading the old one
            now[0] = new FirstFit(specs, version, o);
            if (keep > 0) {
                System.arraycopy(kept, 0, now, 1, keep);
            }
            if (positioned) {
                byPosition.set(position, new Kept(node.name(), now));
            } else {
                byNode.put(node.name(), now);
            }
        }
        return o;
    }

    /** What is kept at the position, when it was kept for this node (a position names one node within a run). */
    private FirstFit[] keptAt(int position, Node node) {
        Kept k = byPosition.get(position);
        return k != null && k.node.equals(node.name()) ? k.fits : null;
    }

    /** A position's first fits and the node they are for. */
    private record Kept(String node, FirstFit[] fits) {
    }

    private static boolean hasShares(Allocator.Allocated a) {
        for (AllocationResult r : a.results()) {
            for (AllocationResult.DeviceResult d : r.devices()) {
                if (d.shareID() != null) {
                    return true;
                }
            }
        }
        return false;
    }

    /** A remembered first fit: for these specs (by identity), at this node version. */
    private record FirstFit(ResourceClaimSpec[] specs, long version, Allocator.Outcome outcome) {
        boolean sameSpecs(List<Allocator.PendingClaim> pending) {
            if (pending.size() != specs.length) {
                return false;
            }
            for (int i = 0; i < specs.length; i++) {
                if (pending.get(i).spec() != specs[i]) {
                    return false;
                }
            }
            return true;
        }
    }
}
