package dev.muster.core.dra;

import java.util.ArrayList;
import java.util.List;

/**
 * How a node's devices look and are held, as one value with {@code equals} that leaves out the names of the node and
 * its pools ({@link ClaimBook#deviceState}): per pool its driver, completeness, validity and counter totals, per slice
 * its device list, per device how many hold it and what shares of it are taken. Nodes with equal states give every
 * pod with node-local claims equal verdicts, and the allocator the same first fit up to the names of the node and its
 * pools ({@link AlikeNodes}). The state spells out its shape (pools, slices per pool), so equal states have equal
 * shapes.
 */
final class DeviceStates {
    private DeviceStates() {
    }

    /** The state of a node seeing these pools, as the ledger holds their devices. */
    static Object of(DeviceLedger ledger, List<NodePool> pools) {
        int size = 0;
        for (int i = 0; i < pools.size(); i++) { // sized first: the state is one array, never grown or trimmed
            List<ResourceSlice> slices = pools.get(i).slices();
            size += 5 + slices.size();
            for (int k = 0; k < slices.size(); k++) {
                size += slices.get(k).devices().size();
            }
        }
        int[] ints = new int[size];
        int n = 0;
        List<Object> shares = null;
        for (int i = 0; i < pools.size(); i++) {
            NodePool p = pools.get(i);
            ints[n++] = p.slices().size();
            ints[n++] = p.pool().driverId;
            ints[n++] = p.pool().incomplete ? 1 : 0;
            ints[n++] = p.pool().invalid() ? 1 : 0;
            ints[n++] = ledger.index().countersLook(p.pool());
            boolean free = !p.pool().heldInSnapshot && ledger.poolVersion(p.pool().ordinal) == 0;
            for (int k = 0; k < p.slices().size(); k++) {
                ResourceSlice s = p.slices().get(k);
                ints[n++] = ledger.index().devicesLook(p.pool(), p.sliceIndexes()[k]);
                if (free) { // nobody holds any of them: no holder counts to look up
                    n += s.devices().size();
                    continue;
                }
                for (PoolDevice pd : p.devices(k)) {
                    AllocatedDevice id = pd.id();
                    int holders = ledger.holders(pd);
                    ints[n++] = holders;
                    if (holders > 0 && pd.device().allowMultipleAllocations()) {
                        if (shares == null) {
                            shares = new ArrayList<>();
                        }
                        shares.add(ledger.consumedCapacity(id));
                    }
                }
            }
        }
        return new DeviceState(ints, shares == null ? List.of() : shares);
    }

    /**
     * The state of a node seeing these devices, at this node version ({@link DeviceLedger#nodeVersion}): while no device
     * of them was taken or given back, the untouched state, worked out once per index and kept on {@code devices}.
     */
    static Object current(DeviceLedger ledger, NodeDevices devices, long version) {
        if (version != 0) {
            return of(ledger, devices.pools);
        }
        Object untouched = devices.untouched; // the same for every decision run of the catalog
        if (untouched == null) {
            untouched = of(ledger, devices.pools);
            devices.untouched = untouched;
        }
        return untouched;
    }

    /** Hashed once: placement symmetry hashes each node's state for every candidate the node is in. */
    private record DeviceState(int[] ints, List<Object> shares, int hash) {
        DeviceState(int[] ints, List<Object> shares) {
            this(ints, shares, java.util.Arrays.hashCode(ints) * 31 + shares.hashCode());
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof DeviceState d && d.hash == hash && java.util.Arrays.equals(ints, d.ints)
                    && shares.equals(d.shares);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
