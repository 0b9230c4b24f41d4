package dev.muster.core.dra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a claim spec can reach among an index's devices, worked out once per spec (specs are immutable, and the
 * request's equal specs are one object): whether it could take a device of a pool shared by several nodes, and
 * whether the allocator's first fit of it is as good as any other choice. The speed-ups of a decision run ask this
 * to know when a pod's verdicts stay node-local and when its gang's members are interchangeable.
 */
final class SpecReach {
    private final DraIndex index;

    SpecReach(DraIndex index) {
        this.index = index;
    }

    /** Per claim spec: whether a request of it could take a device of a pool that is not local to one node. */
    private final Map<ResourceClaimSpec, Boolean> reachesShared = new ConcurrentHashMap<>();

    /**
     * Whether some request (or firstAvailable subrequest) of the spec could take a device of a pool that is not local
     * to one node: a device of such a pool that its class's and its own selectors select. When none could, the
     * spec's allocation on a node depends only on that node's own pools (the others' validity and completeness are
     * fixed for the request). A missing class or a selector failing on such a device counts as could.
     */
    boolean reachesSharedPools(ResourceClaimSpec spec) {
        if (index.sharedPools().isEmpty()) {
            return false;
        }
        Boolean known = reachesShared.get(spec);
        if (known == null) {
            known = anySharedDeviceSelected(spec);
            reachesShared.put(spec, known);
        }
        return known;
    }

    private boolean anySharedDeviceSelected(ResourceClaimSpec spec) {
        for (int i : index.sharedPools()) {
            PoolData p = index.pools().get(i);
            for (int k = 0; k < p.slices.size(); k++) {
                for (PoolDevice pd : p.devices(k)) {
                    for (ResourceClaimSpec.Request r : spec.requests()) {
                        if (r.exactly() != null) {
                            if (selectable(r.exactly().deviceClassName(), r.exactly().selectors(), pd)) {
                                return true;
                            }
                        } else {
                            for (ResourceClaimSpec.SubRequest sub : r.firstAvailable()) {
                                if (selectable(sub.deviceClassName(), sub.selectors(), pd)) {
                                    return true;
                                }
                            }
                        }
                    }
                }
            }
        }
        return false;
    }

    /** Per claim spec: whether any first fit of it is as good as any other for the next claims of that spec. */
    private final Map<ResourceClaimSpec, Boolean> firstFitComplete = new ConcurrentHashMap<>();

    /**
     * Whether, for claims of this spec one after another on a node, the allocator's first fit never leaves fewer
     * claims room than another choice would. It holds for one request without capacity requests or admin access,
     * whose devices consume no shared counters and serve one claim each, when the request is
     * <ul>
     *   <li>{@code exactly} a count of devices, with no constraint but {@code matchAttribute} ones: every choice
     *       takes the count from one group of equal values, so a node holds the sum over groups of free devices
     *       divided by the count, however earlier claims chose; or</li>
     *   <li>{@code firstAvailable} alternatives of one device each, with no constraint: a node holds as many such
     *       claims as it has free devices any alternative selects.</li>
     * </ul>
     */
    boolean firstFitComplete(ResourceClaimSpec spec) {
        Boolean known = firstFitComplete.get(spec);
        if (known == null) {
            known = computeFirstFitComplete(spec);
            firstFitComplete.put(spec, known);
        }
        return known;
    }

    private boolean computeFirstFitComplete(ResourceClaimSpec spec) {
        if (spec.requests().size() != 1) {
            return false;
        }
        ResourceClaimSpec.Request request = spec.requests().get(0);
        List<String> classes = new ArrayList<>();
        List<List<DeviceSelector>> selectors = new ArrayList<>();
        ResourceClaimSpec.ExactRequest r = request.exactly();
        if (r != null) {
            for (ResourceClaimSpec.Constraint c : spec.constraints()) {
                if (c.matchAttribute() == null) {
                    return false;
                }
            }
            if (r.allocationMode() != ResourceClaimSpec.AllocationMode.ExactCount || r.adminAccess()
                    || !r.capacityRequests().isEmpty()) {
                return false;
            }
            classes.add(r.deviceClassName());
            selectors.add(r.selectors());
        } else {
            if (!spec.constraints().isEmpty()) {
                return false;
            }
            for (ResourceClaimSpec.SubRequest sub : request.firstAvailable()) {
                if (sub.allocationMode() != ResourceClaimSpec.AllocationMode.ExactCount || sub.count() != 1
                        || !sub.capacityRequests().isEmpty()) {
                    return false;
                }
                classes.add(sub.deviceClassName());
                selectors.add(sub.selectors());
            }
        }
        for (PoolData p : index.pools()) {
            for (int k = 0; k < p.slices.size(); k++) {
                if (p.slices.get(k).devices().stream().noneMatch(SpecReach::mayServeMany)) {
                    continue; // no device object made for a slice where none could matter (most slices)
                }
                for (PoolDevice pd : p.devices(k)) {
                    if (!mayServeMany(pd.device())) {
                        continue;
                    }
                    for (int i = 0; i < classes.size(); i++) {
                        if (selectable(classes.get(i), selectors.get(i), pd)) {
                            return false;
                        }
                    }
                }
            }
        }
        return true;
    }

    /** Whether the device consumes counters or may serve several claims (only such devices can break a first fit). */
    private static boolean mayServeMany(Device d) {
        return !d.consumesCounters().isEmpty() || d.allowMultipleAllocations();
    }

    private boolean selectable(String className, List<DeviceSelector> selectors, PoolDevice pd) {
        DeviceClass cls = index.deviceClass(className);
        if (cls == null) {
            return true;
        }
        try {
            for (DeviceSelector s : cls.selectors()) {
                if (!index.selects(s, pd)) {
                    return false;
                }
            }
            for (DeviceSelector s : selectors) {
                if (!index.selects(s, pd)) {
                    return false;
                }
            }
            return true;
        } catch (SelectorException e) {
            return true;
        }
    }
}
