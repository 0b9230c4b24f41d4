package dev.muster.core.dra;

import dev.muster.core.model.ExtendedRequest;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The ResourceClaims of one decision: which claims each pod uses, what is allocated and reserved for whom, and what
 * this decision adds. Opened per decision run on the request's {@link ClaimCatalog}; changed only through
 * {@link #reserve} and {@link #unreserve}, which the scheduler runs at Reserve/Unreserve, so a rolled-back member gives back its devices
 * and reservations.
 * <p>
 * Rules, as kube-scheduler applies them with PodGroup-level claims enabled:
 * <ul>
 *   <li>A pod's {@code spec.resourceClaims} entry identical (name and both references) to an entry of its
 *       PodGroup's {@code spec.resourceClaims} uses the PodGroup's claim, reserved for the PodGroup once however
 *       many pods use it. Any other entry is the pod's own claim, reserved for the pod.</li>
 *   <li>A claim from a template is found through {@code status.resourceClaimStatuses}; when the controller has not
 *       created it yet, it is allocated under the name the controller would give it ({@link GeneratedClaimNames#base}) from
 *       the template's spec, and the caller creates it.</li>
 *   <li>Deliberately stricter than upstream: a claim reserved for another PodGroup, or already holding
 *       {@value #MAX_CONSUMERS} consumers, is in use.</li>
 * </ul>
 * Not thread-safe for writes; {@link #allocate} may run concurrently while nothing is reserved.
 */
public final class ClaimBook {
    /** The most consumers {@code status.reservedFor} may hold. */
    public static final int MAX_CONSUMERS = 256;

    private final DeviceLedger ledger;
    private final Map<String, ResourceClaim> claims;
    private final Map<String, ResourceClaimTemplate> templates;
    private final long stepBudget;
    /**
     * Each claim the run has looked at, by key, with what the run did to it: sized for the request's claims, up to
     * {@link #PRESIZED}, as a run may look at each. Concurrent: pods' claims may be resolved on several threads at once.
     */
    private final ConcurrentHashMap<String, ClaimSlot> slots;
    private final List<Runnable> undo = new ArrayList<>();
    private final Map<PodRef, ArrayDeque<Integer>> reservations;
    /** The most entries the run's maps are sized for up front (a table is made at the first entry only). */
    private static final int PRESIZED = 1 << 14;
    private final PodClaims podClaims;
    private final FirstFits firstFits;

    /** @param stepBudget devices the allocator may look at per node and pod */
    public ClaimBook(DraObjects objects, long stepBudget) {
        this(new ClaimCatalog(objects), stepBudget);
    }

    /** A decision run's claims over a request's catalog. */
    public ClaimBook(ClaimCatalog catalog, long stepBudget) {
        this(catalog, stepBudget, 0);
    }

    /**
     * A decision run's claims over a request's catalog, for a snapshot of {@code nodes} nodes: what is remembered per
     * node is found by the node's position where a caller names it.
     */
    public ClaimBook(ClaimCatalog catalog, long stepBudget, int nodes) {
        this(catalog, stepBudget, nodes, true);
    }

    /**
     * @param alikeNodes whether a first fit found on one node answers for the nodes whose devices look and are held
     *                   alike (the same answer up to names: a speed-up; off, the allocator searches every node)
     */
    public ClaimBook(ClaimCatalog catalog, long stepBudget, int nodes, boolean alikeNodes) {
        this.firstFits = new FirstFits(nodes, alikeNodes);
        int capacity = Math.min(catalog.claims.size(), PRESIZED) * 4 / 3 + 1; // no rehash below the load factor
        this.slots = new ConcurrentHashMap<>(capacity);
        this.reservations = new HashMap<>(capacity);
        this.claims = catalog.claims;
        this.templates = catalog.templates;
        this.ledger = catalog.index.newLedger();
        this.podClaims = new PodClaims(catalog, this::slot);
        this.stepBudget = stepBudget;
    }

    /**
     * One claim a pod uses.
     *
     * @param key           {@code namespace/name} of the claim (generated name when not created yet)
     * @param generatedFrom the template it comes from, or null for a claim named directly
     * @param spec          the claim's spec (the template's while the claim does not exist)
     * @param consumer      whom the claim gets reserved for: the pod, or its PodGroup
     * @param extendedRequests for the claim made for extended-resource requests: those requests (the spec is the one
     *                      for a node advertising none of them); null for every other claim
     * @param slot          the claim's state in the run of the book that resolved this use, or null (then the book
     *                      finds it by key)
     */
    public record ClaimUse(String key, String generatedFrom, ResourceClaimSpec spec, ClaimConsumer consumer,
                           List<ExtendedRequest> extendedRequests, ClaimSlot slot) {
        public ClaimUse(String key, String generatedFrom, ResourceClaimSpec spec, ClaimConsumer consumer) {
            this(key, generatedFrom, spec, consumer, null, null);
        }

        public ClaimUse(String key, String generatedFrom, ResourceClaimSpec spec, ClaimConsumer consumer,
                        List<ExtendedRequest> extendedRequests) {
            this(key, generatedFrom, spec, consumer, extendedRequests, null);
        }

        /** Whether this is the claim made for the pod's extended-resource requests ({@link ExtendedResourceClaim}). */
        public boolean extended() {
            return extendedRequests != null;
        }

        public String namespace() {
            return key.substring(0, key.indexOf('/'));
        }

        public String name() {
            return key.substring(key.indexOf('/') + 1);
        }
    }

    /** The claim's slot in this run, made at the first question about it. */
    ClaimSlot slot(String key) {
        return slot(key, claims.get(key));
    }

    /** {@link #slot(String)} of a claim the caller found already ({@code claim}: the request's under that key, or null). */
    ClaimSlot slot(String key, ResourceClaim claim) {
        ClaimSlot s = slots.get(key);
        return s != null ? s : slots.computeIfAbsent(key, k -> new ClaimSlot(this, claim));
    }

    private ClaimSlot slot(ClaimUse u) {
        ClaimSlot s = u.slot();
        return s != null && s.book == this ? s : slot(u.key());
    }

    /** The claims a pod uses, or why they cannot be used (in kube-scheduler's words). */
    public record Resolution(List<ClaimUse> uses, String failure) {
        public boolean ok() {
            return failure == null;
        }

        static Resolution failed(String message) {
            return new Resolution(List.of(), message);
        }
    }

    /**
     * Resolves the claims of a pod ({@code group}: its PodGroup, or null). What the pod's and the group's fields and
     * the snapshot's claims and templates decide is worked out once per pod and group ({@link PodClaims}); whether a
     * claim can still be reserved for its consumer is checked on every call, as reservations come and go.
     */
    public Resolution resolve(Pod pod, PodGroup group) {
        PodClaims.Entries e = podClaims.entries(pod, group);
        List<ClaimUse> checked = e.checked();
        for (int i = 0; i < checked.size(); i++) {
            ClaimUse use = checked.get(i);
            String inUse = slot(use).refusal(use);
            if (inUse != null) {
                return Resolution.failed(inUse);
            }
        }
        return e.resolution();
    }

    /**
     * The claims as a node sees them: the extended-resource claim still to be made asks only for the resources the
     * node does not advertise itself (those it does are counted by NodeResourcesFit), and drops out when none is left.
     */
    public List<ClaimUse> onNode(List<ClaimUse> uses, Node node) {
        for (int i = 0; i < uses.size(); i++) {
            ClaimUse u = uses.get(i);
            if (u.extended() && !claims.containsKey(u.key()) && advertisesAny(node, u.extendedRequests())) {
                List<ClaimUse> out = new ArrayList<>(uses);
                ResourceClaimSpec spec = ExtendedResourceClaim.spec(u.extendedRequests(),
                        ledger.index()::extendedResourceClass, r -> node.allocatable().get(r) == 0);
                if (spec == null) {
                    out.remove(i);
                } else {
                    out.set(i, new ClaimUse(u.key(), null, spec, u.consumer(), u.extendedRequests(), u.slot()));
                }
                return out;
            }
        }
        return uses;
    }

    private static boolean advertisesAny(Node node, List<ExtendedRequest> requests) {
        for (ExtendedRequest r : requests) {
            if (node.allocatable().get(r.resource()) > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The DeviceClass that serves an extended resource on nodes that do not advertise it ({@code extendedResourceName},
     * or {@code deviceclass.resource.kubernetes.io/<class>}), or null.
     */
    public DeviceClass extendedResourceClass(String resource) {
        return ledger.index().extendedResourceClass(resource);
    }

    /**
     * Whether a pod's claims (as resolved) make its verdicts depend only on each node's own state, so that what one
     * member takes on a node changes no other node's verdict. Each claim must be either
     * <ul>
     *   <li>allocated already (in the snapshot or by an earlier member): the node either is in its allocation's
     *       node selector or not; or</li>
     *   <li>the pod's own claim from a template (created by the controller or still to be) or for its extended
     *       resources, not reserved yet, whose requests can take devices only from pools local to one node.</li>
     * </ul>
     * Two such pods whose claims have equal {@link #specsKey}s get equal verdicts.
     */
    public boolean nodeLocal(Resolution r) {
        if (!r.ok()) {
            return false;
        }
        for (ClaimUse u : r.uses()) {
            ClaimSlot s = slot(u);
            if (s.allocation() != null) {
                continue;
            }
            if ((u.generatedFrom() == null && !u.extended()) || u.consumer().isPodGroup()
                    || !s.reservedFor().isEmpty() || ledger.index().reachesSharedPools(u.spec())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether members with these claims (and equal {@link #specsKey}s) may take nodes in any order: the claims are
     * {@link #nodeLocal}, and at most one is still to allocate, of a spec whose first fit is never worse than another
     * choice ({@link DraIndex#firstFitComplete}). Then placing such members greedily places as many as any order and
     * device choice would.
     */
    public boolean interchangeable(Resolution r) {
        if (!nodeLocal(r)) {
            return false;
        }
        int unallocated = 0;
        for (ClaimUse u : r.uses()) {
            if (slot(u).allocation() != null) {
                continue;
            }
            if (++unallocated > 1 || u.extended() || !ledger.index().firstFitComplete(u.spec())) {
                return false;
            }
        }
        return true;
    }

    /** Whether none of the claims is allocated yet. */
    public boolean noneAllocated(Resolution r) {
        for (ClaimUse u : r.uses()) {
            if (slot(u).allocation() != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * What a pod's resolved claims ask for, as a value with {@code equals}, per claim in entry order: its allocation
     * when allocated, else its spec (the request's equal specs are one object, so both are compared by reference),
     * or a marker for the claim made for extended resources (the pod's extended requests say the rest). Equal keys
     * and {@link #nodeLocal} claims mean equal verdicts.
     */
    public Object specsKey(Resolution r) {
        Object[] parts = new Object[r.uses().size()];
        for (int i = 0; i < parts.length; i++) {
            ClaimUse u = r.uses().get(i);
            AllocationResult a = slot(u).allocation();
            parts[i] = a != null ? a : u.extended() ? SpecsKey.EXTENDED : u.spec();
        }
        return new SpecsKey(parts);
    }

    /**
     * The devices a node sees and how much of each is taken now, as a value with {@code equals} that leaves out the
     * names of the node and its pools: two nodes with equal states give every pod with node-local claims the same
     * verdict (the devices chosen differ only in their pool's name).
     */
    public Object deviceState(Node node) {
        return deviceState(-1, node);
    }

    /**
     * {@link #deviceState(Node)} of the node at {@code position} of the snapshot (found by position when the catalog
     * was {@linkplain ClaimCatalog#warmShare warmed} for that snapshot's nodes).
     */
    public Object deviceState(int position, Node node) {
        Object known = position < 0 ? null : ledger.index().untouchedAt(position, node, ledger);
        if (known != null) {
            return known;
        }
        NodeDevices devices = position < 0 ? ledger.index().devicesOf(node)
                : ledger.index().devicesOf(position, node);
        return DeviceStates.current(ledger, devices, ledger.nodeVersion(devices.pools));
    }

    /** The claim's allocation now: made in this decision, else the snapshot's, else null (unallocated). */
    public AllocationResult allocation(String key) {
        ClaimSlot s = slots.get(key);
        if (s != null) {
            return s.allocation();
        }
        ResourceClaim c = claims.get(key);
        return c == null ? null : c.allocation();
    }

    /** {@link #allocation(String)} of the claim a use names. */
    public AllocationResult allocation(ClaimUse use) {
        return slot(use).allocation();
    }

    /** Every consumer the claim is reserved for now: the snapshot's, then those this decision added. */
    public List<ClaimConsumer> reservedFor(String key) {
        ClaimSlot s = slots.get(key);
        if (s != null) {
            return s.reservedFor();
        }
        ResourceClaim c = claims.get(key);
        return c == null ? List.of() : c.reservedFor();
    }

    /**
     * Allocates the unallocated claims among {@code uses} on a node against what is taken now: the devices of
     * snapshot claims, of earlier groups and of earlier members. Only reads; safe to call for many nodes at once.
     * An empty {@link Allocator.Allocated} when nothing needs allocating.
     */
    public Allocator.Outcome allocate(Node node, List<ClaimUse> uses) {
        return allocate(-1, node, uses);
    }

    /**
     * {@link #allocate(Node, List)} on the node at {@code position} of the snapshot: its pools are found by position
     * when the catalog was warmed for that snapshot's nodes (-1: by name).
     */
    public Allocator.Outcome allocate(int position, Node node, List<ClaimUse> uses) {
        List<Allocator.PendingClaim> pending = pending(uses);
        if (pending.isEmpty()) {
            return new Allocator.Allocated(List.of(), 0);
        }
        return firstFit(position, node, pending);
    }

    /**
     * What {@link #allocate(int, Node, List)} says of the node, for a Filter verdict: whether the claims fit there, or
     * why not. An {@link Allocator.Allocated} may name the devices of a node that looks and is held alike, found
     * before (Reserve takes the node's own): no answer is carried to a node that is only filtered.
     */
    public Allocator.Outcome verdict(int position, Node node, List<ClaimUse> uses) {
        List<Allocator.PendingClaim> pending = pending(uses);
        if (pending.isEmpty()) {
            return new Allocator.Allocated(List.of(), 0);
        }
        return firstFits.get(ledger, position, node, pending, stepBudget, false);
    }

    /** The allocator's first fit on the node ({@link FirstFits}: remembered per node and state of its pools). */
    private Allocator.Outcome firstFit(int position, Node node, List<Allocator.PendingClaim> pending) {
        return firstFits.get(ledger, position, node, pending, stepBudget, true);
    }

    /** The unallocated claims among {@code uses}, each once, in the order of their first use. */
    private List<Allocator.PendingClaim> pending(List<ClaimUse> uses) {
        List<Allocator.PendingClaim> pending = null;
        for (ClaimUse u : uses) {
            if (slot(u).allocation() == null && !named(pending, u.key())) {
                if (pending == null) {
                    pending = new ArrayList<>(uses.size());
                }
                pending.add(new Allocator.PendingClaim(u.key(), u.spec()));
            }
        }
        return pending == null ? List.of() : pending;
    }

    /** Whether a claim of {@code pending} has that key (a pod uses a handful of claims: a scan, no map). */
    private static boolean named(List<Allocator.PendingClaim> pending, String key) {
        if (pending != null) {
            for (Allocator.PendingClaim p : pending) {
                if (p.key().equals(key)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Holds a pod's claims on a node: allocates the unallocated ones, takes their devices, and reserves every claim
     * for its consumer. Returns null, or why the claims cannot be held.
     *
     * @param alternative which device solution to take, in the allocator's order: 0 is the first fit (what
     *                    {@link #allocate} found, upstream's choice); a later one when an earlier choice kept other
     *                    members out. Without unallocated claims only 0 exists.
     */
    public String reserve(PodRef pod, Node node, List<ClaimUse> uses, int alternative) {
        return reserve(pod, -1, node, uses, alternative);
    }

    /** {@link #reserve(PodRef, Node, List, int)} on the node at {@code position} of the snapshot (-1: unknown). */
    public String reserve(PodRef pod, int position, Node node, List<ClaimUse> uses, int alternative) {
        List<Allocator.PendingClaim> pending = pending(uses);
        List<AllocationResult> results = List.of();
        Allocator.Allocated picked = null;
        if (pending.isEmpty() && alternative > 0) {
            return Allocator.NO_FURTHER_SOLUTION;
        }
        if (!pending.isEmpty()) {
            Allocator.Outcome o;
            if (alternative == 0) {
                o = firstFit(position, node, pending);
            } else {
                Allocator.Solutions solutions = Allocator.solutions(ledger, node, pending, stepBudget);
                o = solutions.next();
                for (int i = 0; i < alternative && o instanceof Allocator.Allocated; i++) {
                    o = solutions.next();
                }
            }
            if (!(o instanceof Allocator.Allocated a)) {
                return alternative == 0 ? Allocator.CANNOT_ALLOCATE : Allocator.NO_FURTHER_SOLUTION;
            }
            results = a.results();
            picked = a;
        }
        int mark = undo.size();
        int ledgerMark = ledger.mark();
        undo.add(() -> ledger.rollbackTo(ledgerMark));
        for (int i = 0; i < pending.size(); i++) {
            ClaimSlot s = slotOf(uses, pending.get(i).key());
            AllocationResult r = results.get(i);
            ledger.reserve(r, picked == null ? null : picked.devicesOf(i));
            s.here = r;
            undo.add(() -> s.here = null);
        }
        for (ClaimUse u : uses) {
            ClaimSlot s = slot(u);
            if (!s.reservedFor(u.consumer())) {
                if (s.added == null) {
                    s.added = new ArrayList<>(2);
                }
                List<ClaimConsumer> added = s.added;
                added.add(u.consumer());
                undo.add(() -> added.remove(added.size() - 1));
            }
        }
        reservations.computeIfAbsent(pod, k -> new ArrayDeque<>(2)).push(mark); // rarely more than one
        return null;
    }

    /** The slot of the first of {@code uses} with that key (a pending claim is one of them). */
    private ClaimSlot slotOf(List<ClaimUse> uses, String key) {
        for (ClaimUse u : uses) {
            if (u.key().equals(key)) {
                return slot(u);
            }
        }
        return slot(key);
    }

    /** Gives back what the pod's latest {@link #reserve} took (reservations are undone newest first). */
    public void unreserve(PodRef pod) {
        ArrayDeque<Integer> marks = reservations.get(pod);
        if (marks == null || marks.isEmpty()) {
            return;
        }
        int mark = marks.pop();
        while (undo.size() > mark) {
            undo.remove(undo.size() - 1).run();
        }
    }

    /**
     * Releases, for a preemption trial, the devices of the victim's allocated claims that no remaining consumer
     * uses (kube-scheduler releases them once the claim controller deallocates a deleted pod's claims; simulating
     * it lets a gang that needs devices preempt pods that hold them). Returns how to undo it; undoing twice is
     * harmless.
     *
     * @param remains whether a consumer in the claim's reservedFor still runs (the victim itself must answer no)
     */
    public Runnable releaseForVictim(Pod victim, PodGroup victimGroup, java.util.function.Predicate<ClaimConsumer> remains) {
        List<ClaimSlot> freed = new ArrayList<>();
        for (ClaimUse u : resolveQuietly(victim, victimGroup).uses()) {
            ClaimSlot s = slot(u);
            AllocationResult a = s.allocation();
            if (a == null || freed.contains(s)) {
                continue;
            }
            boolean used = false;
            for (ClaimConsumer c : s.reservedFor()) {
                used |= remains.test(c);
            }
            if (!used) {
                ledger.release(a);
                s.released = true;
                freed.add(s);
            }
        }
        boolean[] undone = new boolean[1];
        return () -> {
            if (undone[0]) {
                return;
            }
            undone[0] = true;
            for (ClaimSlot s : freed) {
                s.released = false;
                ledger.reserve(s.allocation());
            }
        };
    }

    /** A claim decision: the allocation and the full reservedFor list after this decision. */
    public record ClaimOutcome(String namespace, String name, String generatedFrom, AllocationResult allocation,
                               List<ClaimConsumer> reservedFor) {
    }

    /**
     * The claims the pods use that this decision allocated or reserved for new consumers, sorted by namespace/name.
     * An already allocated claim keeps its allocation and appears only when its reservedFor grew.
     */
    public List<ClaimOutcome> outcomes(Collection<Pod> pods, PodGroup group) {
        List<ClaimUse> single = pods.size() == 1 ? resolveQuietly(pods.iterator().next(), group).uses() : null;
        if (single != null && single.size() == 1) { // a plain pod's one claim: nothing to merge or sort
            ClaimOutcome o = outcome(single.get(0));
            return o == null ? List.of() : List.of(o);
        }
        Map<String, ClaimOutcome> out = new HashMap<>();
        List<String> keys = new ArrayList<>();
        if (single != null) {
            collect(single, out, keys);
        } else {
            for (Pod pod : pods) {
                collect(resolveQuietly(pod, group).uses(), out, keys);
            }
        }
        keys.sort(null); // members come in order, so their claims mostly do too: then one pass
        List<ClaimOutcome> sorted = new ArrayList<>(keys.size());
        for (String key : keys) {
            sorted.add(out.get(key));
        }
        return sorted;
    }

    /** Adds the outcomes of {@code uses} not in {@code out} yet, keys in the order first met. */
    private void collect(List<ClaimUse> uses, Map<String, ClaimOutcome> out, List<String> keys) {
        for (ClaimUse u : uses) {
            if (out.containsKey(u.key())) {
                continue;
            }
            ClaimOutcome o = outcome(u);
            if (o != null) {
                out.put(u.key(), o);
                keys.add(u.key());
            }
        }
    }

    /** What this decision did with the claim: allocated or reserved it anew; null when nothing. */
    private ClaimOutcome outcome(ClaimUse u) {
        ClaimSlot s = slot(u);
        if (s.changed()) {
            ResourceClaim c = s.claim; // a claim of the request names itself: no substrings of the key
            return new ClaimOutcome(c != null ? c.namespace() : u.namespace(), c != null ? c.name() : u.name(),
                    u.generatedFrom(), s.allocation(), List.copyOf(s.reservedFor()));
        }
        return null;
    }

    /**
     * Resolution for reporting and releasing: a pod whose claims no longer resolve contributes none (once reserved,
     * its consumer is among reservedFor, so the in-use check passes for it).
     */
    private Resolution resolveQuietly(Pod pod, PodGroup group) {
        Resolution r = resolve(pod, group);
        return r.ok() ? r : new Resolution(List.of(), r.failure());
    }
}
