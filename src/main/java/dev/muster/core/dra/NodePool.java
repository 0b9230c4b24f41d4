package dev.muster.core.dra;

import java.util.List;

/**
 * One pool as one node sees it: the slices with devices relevant to the node, in name order, and where each
 * stands among the pool's slices.
 */
record NodePool(PoolData pool, List<ResourceSlice> slices, int[] sliceIndexes) {
    private static final PoolDevice[] NONE = new PoolDevice[0];

    /** Slice {@code k}'s devices, aligned with its {@code devices}. */
    PoolDevice[] devices(int k) {
        return pool.devices(sliceIndexes[k]);
    }

    /**
     * The devices of the usable pools in order: a node's one slice is its array as it is (nothing copied: never to be
     * written), several are copied into one array.
     */
    static PoolDevice[] usableDevices(List<NodePool> pools) {
        PoolDevice[] only = null;
        int total = 0;
        int lists = 0;
        for (NodePool p : pools) {
            if (p.pool().incomplete || p.pool().invalid()) {
                continue;
            }
            for (int k = 0; k < p.slices().size(); k++) {
                only = p.devices(k);
                total += only.length;
                lists++;
            }
        }
        if (lists <= 1) {
            return only == null ? NONE : only;
        }
        PoolDevice[] all = new PoolDevice[total];
        int n = 0;
        for (NodePool p : pools) {
            if (p.pool().incomplete || p.pool().invalid()) {
                continue;
            }
            for (int k = 0; k < p.slices().size(); k++) {
                PoolDevice[] devices = p.devices(k);
                System.arraycopy(devices, 0, all, n, devices.length);
                n += devices.length;
            }
        }
        return all;
    }
}
