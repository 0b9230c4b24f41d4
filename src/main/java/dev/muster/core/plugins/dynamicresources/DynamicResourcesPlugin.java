package dev.muster.core.plugins.dynamicresources;

import dev.muster.core.dra.AllocationResult;
import dev.muster.core.dra.Allocator;
import dev.muster.core.dra.ClaimBook;
import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.FilterPlugin;
import dev.muster.core.framework.NodeField;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodField;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.PreFilterPlugin;
import dev.muster.core.framework.ReservePlugin;
import dev.muster.core.framework.SignPlugin;
import dev.muster.core.framework.StateKey;
import dev.muster.core.framework.Status;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.NodeSelectors;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;

import java.util.List;
import java.util.Set;

/**
 * Devices for a pod's ResourceClaims (upstream DynamicResources with structured parameters and PodGroup-level
 * claims).
 * <ul>
 *   <li>PreFilter: resolves the pod's claims ({@link ClaimBook#resolve}); a claim that is missing, being deleted,
 *       or in use by another consumer fails the pod on every node. Requests for extended resources that a DeviceClass
 *       backs become one more claim of the pod's own (DRAExtendedResource), asking on each node only for what the
 *       node does not advertise itself. Skip for a pod without either.</li>
 *   <li>Filter: an allocated claim (in the snapshot, or by an earlier member or group of this decision) must be
 *       usable on the node (its allocation's node selector); the unallocated ones must be allocatable there, with
 *       the devices still free.</li>
 *   <li>Sign: a pod whose claims are its own, from templates, not allocated or reserved yet, with devices only on
 *       nodes' own slices has node-local verdicts ({@link ClaimBook#nodeLocal}); its evaluation may be kept and
 *       refreshed for the next member whose claims have the same specs ({@link ClaimBook#specsKey}), which Filter
 *       then resolves for itself.</li>
 *   <li>Reserve: allocates on the chosen node (the same first fit Filter found) and reserves each claim for the pod,
 *       or for its PodGroup when the claim is the group's. Unreserve gives it all back.</li>
 * </ul>
 * Messages are kube-scheduler's: {@value #NOT_AVAILABLE}, {@value Allocator#CANNOT_ALLOCATE}, and the allocator's
 * own for a missing device class. The allocator's errors (a selector failing at run time, more devices than a claim
 * may hold, an {@code All} request on an incomplete pool) are Error statuses: they end the pod's cycle.
 */
public final class DynamicResourcesPlugin implements PreFilterPlugin, FilterPlugin, ReservePlugin, SignPlugin {
    public static final String NAME = "DynamicResources";
    static final String NOT_AVAILABLE = "resourceclaim not available on the node";

    private static final StateKey<Claims> KEY = StateKey.of(NAME);

    /** What PreFilter found for one pod: the book, the pod's claims, and whose they are. */
    private record Claims(ClaimBook book, List<ClaimBook.ClaimUse> uses, PodRef pod, PodGroup group) {
        /**
         * The claims of {@code other}: the kept ones when PreFilter ran for it, else its own (an evaluation kept for
         * an equal, node-local pod is being refreshed for it; its claims have other names).
         */
        List<ClaimBook.ClaimUse> of(PodInfo other) {
            if (other.ref().equals(pod)) {
                return uses;
            }
            ClaimBook.Resolution r = book.resolve(other.pod(), group);
            return r.ok() ? r.uses() : uses;
        }
    }

    /**
     * What resolving the pod's claims reads: its claim entries and the claims made for them, its extended requests
     * and the claim made for those, and whose claims they are (the pod by name and uid, or its group).
     */
    private static final Set<PodField> READS = Set.of(PodField.NAMESPACE, PodField.NAME, PodField.UID,
            PodField.POD_GROUP, PodField.RESOURCE_CLAIMS, PodField.RESOURCE_CLAIM_STATUSES, PodField.EXTENDED_REQUESTS,
            PodField.EXTENDED_RESOURCE_CLAIM);

    private static final Set<PodField> KEYED = Set.of(PodField.NAMESPACE, PodField.NAME, PodField.UID,
            PodField.POD_GROUP, PodField.RESOURCE_CLAIM_STATUSES);

    private static final Set<NodeField> NODE_READS = Set.of(NodeField.NAME, NodeField.LABELS, NodeField.ALLOCATABLE);

    private static final Set<NodeField> NODE_KEYED = Set.of(NodeField.NAME, NodeField.LABELS);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Set<PodField> podFields() {
        return READS;
    }

    /**
     * Whose claims they are and which claims were made for them count only through {@link #podKey}: the specs or
     * allocations of the claims they resolve to.
     */
    @Override
    public Set<PodField> podKeyFields() {
        return KEYED;
    }

    /**
     * Which devices the node has (its own slices, found by name, and slices selecting it by label), the node selector
     * of an allocated claim (labels and name), and whether the node advertises an extended resource itself.
     */
    @Override
    public Set<NodeField> nodeFields() {
        return NODE_READS;
    }

    /**
     * The name and labels count through {@link #nodeKey} (the state of the node's devices) and through allocated
     * claims, for whose pods this plugin answers not symmetric.
     */
    @Override
    public Set<NodeField> nodeKeyFields() {
        return NODE_KEYED;
    }

    @Override
    public Status preFilter(CycleState state, PodInfo pod, ClusterView cluster) {
        if (!pod.pod().usesDevices() || cluster.claims() == null) {
            return Status.SKIP;
        }
        ClaimBook book = cluster.claims();
        ClaimBook.Resolution r = book.resolve(pod.pod(), group(pod, cluster));
        if (!r.ok()) {
            return Status.unresolvable(NAME, r.failure());
        }
        if (r.uses().isEmpty()) {
            return Status.SKIP;
        }
        state.put(KEY, new Claims(book, r.uses(), pod.ref(), group(pod, cluster)));
        return Status.SUCCESS;
    }

    @Override
    public Object nodeKey(NodeInfo node, ClusterView cluster) {
        ClaimBook book = cluster.claims();
        return book == null ? null : book.deviceState(node.index(), node.node());
    }

    @Override
    public boolean nodeLocal(PodInfo pod, ClusterView cluster) {
        if (!pod.pod().usesDevices()) {
            return true;
        }
        ClaimBook book = cluster.claims();
        return book != null && book.nodeLocal(book.resolve(pod.pod(), group(pod, cluster)));
    }

    /** An allocated claim is usable on the nodes its allocation selects, by name: alike nodes may differ. */
    @Override
    public boolean symmetric(PodInfo pod, ClusterView cluster) {
        ClaimBook book = cluster.claims();
        if (!pod.pod().usesDevices() || book == null) {
            return true;
        }
        ClaimBook.Resolution r = book.resolve(pod.pod(), group(pod, cluster));
        return r.ok() && book.noneAllocated(r);
    }

    /** Members whose claims' first fits are as good as any other choice ({@link ClaimBook#interchangeable}). */
    @Override
    public boolean interchangeable(PodInfo pod, ClusterView cluster) {
        ClaimBook book = cluster.claims();
        if (!pod.pod().usesDevices() || book == null) {
            return !pod.pod().usesDevices();
        }
        return book.interchangeable(book.resolve(pod.pod(), group(pod, cluster)));
    }

    /** The specs of the pod's claims: pods with equal entries may have claims the controller made from other specs. */
    @Override
    public Object podKey(PodInfo pod, ClusterView cluster) {
        ClaimBook book = cluster.claims();
        if (!pod.pod().usesDevices() || book == null) {
            return null;
        }
        ClaimBook.Resolution r = book.resolve(pod.pod(), group(pod, cluster));
        return r.ok() ? book.specsKey(r) : r.failure();
    }

    private static PodGroup group(PodInfo pod, ClusterView cluster) {
        GroupRef ref = pod.pod().groupRef();
        return ref == null ? null : cluster.podGroup(ref);
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        Claims claims = state.get(KEY);
        if (claims == null) {
            return Status.SUCCESS;
        }
        List<ClaimBook.ClaimUse> uses = claims.book().onNode(claims.of(pod), node.node());
        for (ClaimBook.ClaimUse use : uses) {
            AllocationResult a = claims.book().allocation(use);
            if (a != null && a.nodeSelector() != null && !NodeSelectors.anyTermMatches(a.nodeSelector(), node.node())) {
                return Status.unresolvable(NAME, NOT_AVAILABLE);
            }
        }
        return verdict(claims.book().verdict(node.index(), node.node(), uses));
    }

    private static Status verdict(Allocator.Outcome outcome) {
        if (outcome instanceof Allocator.Allocated) {
            return Status.SUCCESS;
        }
        if (outcome instanceof Allocator.Failed f) {
            // the allocator's errors end the pod's cycle, as kube-scheduler's do; a missing class only rejects
            return f.error() ? Status.error(NAME, f.message()) : Status.unresolvable(NAME, f.message());
        }
        if (outcome instanceof Allocator.Unfit u && u.reason() != null && !u.reason().isEmpty()) {
            return Status.unschedulable(NAME, u.reason());
        }
        return Status.unschedulable(NAME, Allocator.CANNOT_ALLOCATE);
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
        if (!pod.pod().usesDevices() || cluster.claims() == null) {
            return Status.SUCCESS;
        }
        ClaimBook book = cluster.claims();
        ClaimBook.Resolution r = book.resolve(pod.pod(), group(pod, cluster));
        if (!r.ok()) {
            return Status.unresolvable(NAME, r.failure());
        }
        Integer alternative = state.get(ALTERNATIVE);
        String failure = book.reserve(pod.ref(), node.index(), node.node(), book.onNode(r.uses(), node.node()),
                alternative == null ? 0 : alternative);
        return failure == null ? Status.SUCCESS : Status.unschedulable(NAME, failure);
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
        if (pod.pod().usesDevices() && cluster.claims() != null) {
            cluster.claims().unreserve(pod.ref());
        }
    }
}
