package dev.muster.core.dra;

import java.util.List;

/** A node's pools, and how their devices are held before a decision takes or gives back any. */
final class NodeDevices {
    final List<NodePool> pools;
    /**
     * {@link ClaimBook#deviceState} while no device of these pools was taken or given back: the same for every
     * ledger of a {@link DraIndex}, so kept once worked out (null until then). Threads racing to work it out write
     * equal immutable values, so the field needs no lock.
     */
    Object untouched;

    NodeDevices(List<NodePool> pools) {
        this.pools = pools;
    }
}
