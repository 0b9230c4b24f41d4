package dev.muster.core.dra;

import dev.muster.core.model.ExtendedClaimStatus;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodClaimRef;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * What a pod's claim entries name, as far as the pod's and its PodGroup's fields and the request's claims and
 * templates decide it: which claim each entry is, its spec and its consumer, or why an entry cannot be used. Worked
 * out once per pod and PodGroup in a decision run; {@link ClaimBook#resolve} adds what changes during the run (whether
 * each claim can still be reserved for its consumer).
 */
final class PodClaims {
    private final Map<String, ResourceClaimTemplate> templates;
    private final Map<ResourceClaim.MadeFor, ResourceClaim> madeFor;
    private final DraIndex index;
    private final ClaimCatalog catalog;
    /** Per pod, its entries as last worked out (kept for that pod object and PodGroup object only). */
    private final Map<PodRef, Entries> known;

    /** The entries last asked for, on any thread (immutable, so a stale one is only a miss). */
    private volatile Entries last;
    /** The book's slot of a claim, by key and the request's claim under it (or null): each use carries its claim's. */
    private final BiFunction<String, ResourceClaim, ClaimSlot> slots;

    PodClaims(ClaimCatalog catalog, BiFunction<String, ResourceClaim, ClaimSlot> slots) {
        this.slots = slots;
        // about one pod per claim or template: sized once, not grown (and rehashed) entry by entry over a run
        this.known = new ConcurrentHashMap<>(Math.max(16, catalog.claims.size() + catalog.templates.size()));
        this.templates = catalog.templates;
        this.madeFor = catalog.madeFor;
        this.index = catalog.index;
        this.catalog = catalog;
    }

    /** The pod's entries with {@code group} as its PodGroup (null: none). */
    Entries entries(Pod pod, PodGroup group) {
        Entries e = last;
        if (e != null && e.pod == pod && e.group == group) {
            return e; // a pod's cycle resolves its claims several times in a row (sign, key, filter, reserve)
        }
        e = known.get(pod.ref());
        if (e == null || e.pod != pod || e.group != group) {
            e = compute(pod, group);
            known.put(pod.ref(), e);
        }
        last = e;
        return e;
    }

    /**
     * What resolving a pod's claims finds before reservations are looked at: the uses of its entries up to the first
     * one that fails (each still to pass {@link ClaimBook#resolve}'s reservation check, in order), then that failure,
     * or the whole resolution.
     */
    record Entries(Pod pod, PodGroup group, List<ClaimBook.ClaimUse> checked, ClaimBook.Resolution resolution) {
    }

    private Entries compute(Pod pod, PodGroup group) {
        String ns = pod.ref().namespace();
        List<ClaimBook.ClaimUse> uses = new ArrayList<>(pod.resourceClaims().size());
        for (PodClaimRef entry : pod.resourceClaims()) {
            boolean groupLevel = group != null && group.resourceClaims().contains(entry);
            String owner = groupLevel ? group.ref().name() : pod.ref().name();
            Map<String, String> statuses = groupLevel ? group.resourceClaimStatuses() : pod.resourceClaimStatuses();
            String name;
            String template = entry.resourceClaimTemplateName();
            if (template == null) {
                name = entry.resourceClaimName();
                if (catalog.find(ns, name) == null) {
                    return failedAfter(pod, group, uses, "resourceclaim.resource.k8s.io \"" + name + "\" not found");
                }
            } else {
                String recorded = statuses.get(entry.name());
                if (recorded != null && recorded.isEmpty()) {
                    continue; // the controller decided that no claim is needed
                }
                name = recorded != null ? recorded : GeneratedClaimNames.base(owner, entry.name());
            }
            ClaimCatalog.Keyed found = catalog.find(ns, name); // one look-up for the claim and its key
            String key = found != null ? found.key() : ns + "/" + name;
            ResourceClaim existing = found != null ? found.claim() : null;
            ResourceClaimSpec spec;
            if (existing != null) {
                if (existing.deleting()) {
                    return failedAfter(pod, group, uses, "resourceclaim \"" + name + "\" is being deleted");
                }
                spec = catalog.canonical(existing.spec());
            } else {
                ResourceClaimTemplate t = templates.get(ns + "/" + template);
                if (t == null) {
                    return failedAfter(pod, group, uses,
                            "resourceclaimtemplate.resource.k8s.io \"" + template + "\" not found");
                }
                spec = catalog.canonical(t.spec());
            }
            ClaimConsumer consumer = groupLevel ? ClaimConsumer.podGroup(group.ref().name(), group.uid())
                    : ClaimConsumer.pod(pod.ref().name(), pod.uid());
            uses.add(new ClaimBook.ClaimUse(key, template, spec, consumer, null, slots.apply(key, existing)));
        }
        List<ClaimBook.ClaimUse> checked = List.copyOf(uses);
        if (pod.isBound()) {
            ResourceClaim held = extendedResourceClaim(pod);
            if (held != null) {
                uses.add(ExtendedResourceClaim.held(pod, held));
            }
        } else if (!pod.extendedRequests().isEmpty()) {
            ResourceClaimSpec spec = ExtendedResourceClaim.spec(pod.extendedRequests(),
                    index::extendedResourceClass, r -> true);
            if (spec != null) {
                ResourceClaim left = extendedResourceClaim(pod);
                if (left != null) {
                    return new Entries(pod, group, checked,
                            ClaimBook.Resolution.failed(ExtendedResourceClaim.stale(left.name())));
                }
                String key = ns + "/" + GeneratedClaimNames.base(pod.ref().name(), ExtendedResourceClaim.ENTRY);
                uses.add(new ClaimBook.ClaimUse(key, null, spec, ClaimConsumer.pod(pod.ref().name(), pod.uid()),
                        pod.extendedRequests(), slots.apply(key, catalog.claims.get(key))));
            }
        }
        return new Entries(pod, group, checked, new ClaimBook.Resolution(
                uses.size() == checked.size() ? checked : List.copyOf(uses), null));
    }

    /**
     * The claim that exists for the pod's extended resources: the one its {@code status.extendedResourceClaimStatus}
     * names, else one annotated as made for extended resources whose controlling owner is the pod (same name and
     * uid; how kube-scheduler finds a claim it made in an attempt whose binding failed). Null when neither is in
     * the request.
     */
    private ResourceClaim extendedResourceClaim(Pod pod) {
        ExtendedClaimStatus made = pod.extendedResourceClaim();
        ClaimCatalog.Keyed found = made == null ? null : catalog.find(pod.ref().namespace(), made.claimName());
        ResourceClaim named = found == null ? null : found.claim();
        if (named != null || madeFor.isEmpty() || pod.uid() == null || pod.uid().isEmpty()) {
            return named;
        }
        return madeFor.get(new ResourceClaim.MadeFor(pod.ref().name(), pod.uid()));
    }

    private static Entries failedAfter(Pod pod, PodGroup group, List<ClaimBook.ClaimUse> uses, String failure) {
        return new Entries(pod, group, List.copyOf(uses), ClaimBook.Resolution.failed(failure));
    }
}
