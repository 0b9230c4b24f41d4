package dev.muster.core.dra;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One claim's state in a decision run ({@link ClaimBook}): the request's claim and what the run did to it. A pod's
 * claim uses carry their slot, so the many questions a pod's cycle asks of its claims (at PreFilter, for its signature,
 * at Filter and Reserve, for the answer) read fields instead of hashing the claim's key into a map each time.
 * Changed only by the book's Reserve, Unreserve and victim releases, on one thread.
 */
public final class ClaimSlot {
    /** The book whose run this is the state of (a use carried into another book is found there by key). */
    final ClaimBook book;
    /** The request's claim, or null for a claim not created yet. */
    final ResourceClaim claim;
    /** Allocated by this run (null: not). */
    AllocationResult here;
    /** The consumers this run reserved it for, in order (null: none yet). */
    List<ClaimConsumer> added;
    /** Whether a preemption trial has released its devices. */
    boolean released;

    ClaimSlot(ClaimBook book, ResourceClaim claim) {
        this.book = book;
        this.claim = claim;
    }

    /** The claim's allocation now: made in this run, else the snapshot's, else null (unallocated). */
    AllocationResult allocation() {
        if (released) {
            return null;
        }
        if (here != null) {
            return here;
        }
        return claim == null ? null : claim.allocation();
    }

    /** Every consumer the claim is reserved for now: the snapshot's, then those this run added. */
    List<ClaimConsumer> reservedFor() {
        if (added == null || added.isEmpty()) {
            return claim == null ? List.of() : claim.reservedFor();
        }
        if (claim == null || claim.reservedFor().isEmpty()) {
            return Collections.unmodifiableList(added); // a claim this run made: only its new consumers
        }
        List<ClaimConsumer> all = new ArrayList<>(claim.reservedFor());
        all.addAll(added);
        return all;
    }

    /**
     * Why the claim cannot be reserved for {@code consumer} (null: it can): another PodGroup holds it, or it is
     * reserved for {@link ClaimBook#MAX_CONSUMERS} consumers already. Asked for every pod on every Filter, so it walks
     * the snapshot's consumers and this run's in place, without the list {@link #reservedFor()} makes, and names the
     * claim ({@code use}'s) only in a refusal.
     */
    String refusal(ClaimBook.ClaimUse use) {
        ClaimConsumer consumer = use.consumer();
        List<ClaimConsumer> before = claim == null ? List.of() : claim.reservedFor();
        int n = before.size() + (added == null ? 0 : added.size());
        for (int i = 0; i < n; i++) {
            ClaimConsumer c = i < before.size() ? before.get(i) : added.get(i - before.size());
            if (c.sameAs(consumer)) {
                return null; // already reserved for this consumer
            }
            if (c.isPodGroup() && !(consumer.isPodGroup() && c.name().equals(consumer.name()))) {
                return "resourceclaim \"" + use.name() + "\" is in use by PodGroup \"" + c.name() + "\"";
            }
        }
        if (n >= ClaimBook.MAX_CONSUMERS) {
            return "resourceclaim \"" + use.name() + "\" is in use: it is reserved for " + ClaimBook.MAX_CONSUMERS
                    + " consumers already";
        }
        return null;
    }

    /** Whether the claim is reserved for {@code consumer} now (by the snapshot or this run). */
    boolean reservedFor(ClaimConsumer consumer) {
        List<ClaimConsumer> before = claim == null ? List.of() : claim.reservedFor();
        for (int i = 0; i < before.size(); i++) {
            if (before.get(i).sameAs(consumer)) {
                return true;
            }
        }
        if (added != null) {
            for (int i = 0; i < added.size(); i++) {
                if (added.get(i).sameAs(consumer)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether this run allocated the claim or reserved it for a new consumer. */
    boolean changed() {
        return (added != null && !added.isEmpty()) || here != null;
    }
}
