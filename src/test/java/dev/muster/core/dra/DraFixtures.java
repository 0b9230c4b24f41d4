package dev.muster.core.dra;

import dev.muster.core.dra.ResourceClaimSpec.AllocationMode;
import dev.muster.core.dra.ResourceClaimSpec.Constraint;
import dev.muster.core.dra.ResourceClaimSpec.ExactRequest;
import dev.muster.core.dra.ResourceClaimSpec.Request;
import dev.muster.core.dra.ResourceClaimSpec.SubRequest;
import dev.muster.core.dra.ResourceClaimSpec.Toleration;
import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.Quantity;
import dev.muster.core.model.ResourceList;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Builders for DRA tests, shaped like the helpers of the upstream shared allocator test table so cases read the
 * same. Selectors are small Java predicates standing in for the CEL expressions.
 */
final class DraFixtures {
    static final String REGION1 = "region-1";
    static final String REGION2 = "region-2";
    static final String NODE1 = "node-1";
    static final String NODE2 = "node-2";
    static final String CLASS_A = "class-a";
    static final String CLASS_B = "class-b";
    static final String DRIVER_A = "driver-a";
    static final String DRIVER_B = "driver-b";
    static final String POOL1 = "pool-1";
    static final String POOL2 = "pool-2";
    static final String POOL3 = "pool-3";
    static final String POOL4 = "pool-4";
    static final String REQ0 = "req-0";
    static final String REQ1 = "req-1";
    static final String REQ2 = "req-2";
    static final String SUB0 = "subReq-0";
    static final String SUB1 = "subReq-1";
    static final String CLAIM0 = "claim-0";
    static final String CLAIM1 = "claim-1";
    static final String SLICE1 = "slice-1";
    static final String SLICE2 = "slice-2";
    static final String SLICE3 = "slice-3";
    static final String SLICE4 = "slice-4";
    static final String DEVICE0 = "device-0";
    static final String DEVICE1 = "device-1";
    static final String DEVICE2 = "device-2";
    static final String DEVICE3 = "device-3";
    static final String COUNTER_SET1 = "counter-set-1";
    static final String COUNTER_SET2 = "counter-set-2";
    static final String CAPACITY0 = "capacity-0";
    static final String ALL = "<all nodes>";
    static final String PER_DEVICE = "<per device>";

    private DraFixtures() {
    }

    /** A selector backed by a predicate; the "expression" is only a label. */
    record TestSelector(String expression, Predicate<SelectorDevice> test) implements DeviceSelector {
        @Override
        public boolean matches(SelectorDevice device) {
            return test.test(device);
        }
    }

    static DeviceSelector sel(String expression, Predicate<SelectorDevice> test) {
        return new TestSelector(expression, test);
    }

    static DeviceSelector driverIs(String driver) {
        return sel("device.driver == \"" + driver + "\"", d -> d.driver().equals(driver));
    }

    /** {@code device.capacity["driver-a"].memory.compareTo(quantity(q)) >= 0}; a missing capacity is a run-time error. */
    static DeviceSelector memoryAtLeast(String q) {
        return sel("memory >= " + q, d -> {
            BigDecimal have = d.capacity().getOrDefault(DRIVER_A, Map.of()).get("memory");
            if (have == null) {
                throw new SelectorException("no such key: memory");
            }
            return have.compareTo(Quantity.exact(q)) >= 0;
        });
    }

    /** {@code device.attributes["driver-a"].<name> == value}; a missing attribute is a run-time error. */
    static DeviceSelector attributeIs(String name, DeviceAttribute value) {
        return sel(name + " == " + value, d -> {
            DeviceAttribute have = d.attributes().getOrDefault(DRIVER_A, Map.of()).get(name);
            if (have == null) {
                throw new SelectorException("no such key: " + name);
            }
            return have.equals(value);
        });
    }

    static DeviceClass deviceClass(String name, String driver) {
        return new DeviceClass(name, List.of(driverIs(driver)), null);
    }

    static DeviceClass classWithConfig(String name, String driver, String attribute) {
        return new DeviceClass(name, List.of(driverIs(driver)), List.of(config(driver, attribute)));
    }

    static DeviceClass classWithAllowMultipleAllocations(String name, String driver, boolean multi) {
        return new DeviceClass(name, List.of(sel("driver && multi == " + multi,
                d -> d.driver().equals(driver) && d.allowMultipleAllocations() == multi)), null);
    }

    static OpaqueConfig config(String driver, String attribute) {
        return new OpaqueConfig(driver, "{\"" + attribute + "\":\"" + attribute + "Value\"}");
    }

    static Node node(String name, String region) {
        return new Node(name, name + "-uid", Map.of("region", region, "planet", "earth"), null, false, ResourceList.EMPTY);
    }

    // ---- devices ------------------------------------------------------------------------------------------------

    /** A device under construction. */
    static final class Dev {
        String name;
        Map<String, DeviceAttribute> attributes = new LinkedHashMap<>();
        Map<String, Device.Capacity> capacity = new LinkedHashMap<>();
        List<Device.CounterConsumption> counters = new ArrayList<>();
        List<Device.Taint> taints = new ArrayList<>();
        boolean multi;
        boolean bindsToNode;
        String nodeName;
        List<NodeSelectorTerm> nodeSelector;
        boolean allNodes;
        boolean capacityFromCounters;

        Dev attr(String key, DeviceAttribute v) {
            attributes.put(key, v);
            return this;
        }

        Dev cap(String key, String value) {
            capacity.put(key, Device.Capacity.of(value));
            return this;
        }

        /** Capacity with the upstream table's range policy: default 2, min 2, step 2, max 4. */
        Dev capRange(String key, String value) {
            capacity.put(key, new Device.Capacity(value, new Device.RequestPolicy("2", null, new Device.ValidRange("2", "4", "2"))));
            return this;
        }

        Dev consumes(String set, String... kv) {
            Map<String, String> m = pairs(kv);
            counters.add(new Device.CounterConsumption(set, m));
            if (capacityFromCounters) {
                m.forEach(this::cap);
            }
            return this;
        }

        Dev fromCounters() {
            capacityFromCounters = true;
            return this;
        }

        Dev taint(Device.Taint t) {
            taints.add(t);
            return this;
        }

        Dev multi() {
            multi = true;
            return this;
        }

        Dev onNode(Object selection) {
            if (selection instanceof String s) {
                if (s.equals(ALL)) {
                    allNodes = true;
                } else {
                    nodeName = s;
                }
            } else {
                @SuppressWarnings("unchecked")
                List<NodeSelectorTerm> terms = (List<NodeSelectorTerm>) selection;
                nodeSelector = terms;
            }
            return this;
        }

        Device build() {
            return new Device(name, attributes, capacity, counters, taints, multi, bindsToNode, null, null, nodeName,
                    nodeSelector, allNodes);
        }
    }

    static Dev dev(String name) {
        Dev d = new Dev();
        d.name = name;
        return d;
    }

    static Dev memDev(String name, String memory) {
        return dev(name).cap("memory", memory);
    }

    static Map<String, String> pairs(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    // ---- slices ---------------------------------------------------------------------------------------------------

    static ResourceSlice.Pool pool(String name, long count) {
        return new ResourceSlice.Pool(name, 1, count);
    }

    private static ResourceSlice.Pool poolOf(Object pool) {
        return pool instanceof ResourceSlice.Pool p ? p : new ResourceSlice.Pool((String) pool, 1, 1);
    }

    @SuppressWarnings("unchecked")
    static ResourceSlice slice(String name, Object nodeSelection, Object pool, String driver, List<Device> devices,
                               List<ResourceSlice.CounterSet> counters) {
        String nodeName = null;
        List<NodeSelectorTerm> selector = null;
        boolean all = false;
        boolean perDevice = false;
        if (nodeSelection instanceof String s) {
            if (s.equals(ALL)) {
                all = true;
            } else if (s.equals(PER_DEVICE)) {
                perDevice = true;
            } else {
                nodeName = s;
            }
        } else {
            selector = (List<NodeSelectorTerm>) nodeSelection;
        }
        return new ResourceSlice(name, driver, poolOf(pool), nodeName, selector, all, perDevice, devices, counters);
    }

    static ResourceSlice slice(String name, Object nodeSelection, Object pool, String driver, Dev... devices) {
        return slice(name, nodeSelection, pool, driver, Arrays.stream(devices).map(Dev::build).toList(), null);
    }

    static ResourceSlice sliceWithOneDevice(String name, Object nodeSelection, Object pool, String driver) {
        return slice(name, nodeSelection, pool, driver, dev(DEVICE1));
    }

    static ResourceSlice sliceWithMultipleDevices(String name, Object nodeSelection, Object pool, String driver, int n) {
        Dev[] devs = new Dev[n];
        for (int i = 0; i < n; i++) {
            devs[i] = dev("device-" + i);
        }
        return slice(name, nodeSelection, pool, driver, devs);
    }

    static ResourceSlice counterSlice(String name, Object nodeSelection, Object pool, String driver,
                                      ResourceSlice.CounterSet... sets) {
        return slice(name, nodeSelection, pool, driver, List.of(), List.of(sets));
    }

    static ResourceSlice.CounterSet counterSet(String name, String... kv) {
        return new ResourceSlice.CounterSet(name, pairs(kv));
    }

    static List<NodeSelectorTerm> labelSelector(String key, String... values) {
        return List.of(new NodeSelectorTerm(List.of(new NodeSelectorRequirement(key, NodeSelectorRequirement.Operator.In,
                List.of(values))), null));
    }

    static List<NodeSelectorTerm> localSelector(String node) {
        return List.of(new NodeSelectorTerm(null, List.of(new NodeSelectorRequirement("metadata.name",
                NodeSelectorRequirement.Operator.In, List.of(node)))));
    }

    // ---- claims ---------------------------------------------------------------------------------------------------

    static Allocator.PendingClaim claim(String name, List<Constraint> constraints, Request... requests) {
        return new Allocator.PendingClaim(name, new ResourceClaimSpec(List.of(requests), constraints, null));
    }

    static Allocator.PendingClaim claim(String name, Request... requests) {
        return claim(name, null, requests);
    }

    static Allocator.PendingClaim withConfig(Allocator.PendingClaim c, ResourceClaimSpec.ClaimConfig... configs) {
        return new Allocator.PendingClaim(c.key(), new ResourceClaimSpec(c.spec().requests(), c.spec().constraints(),
                List.of(configs)));
    }

    static Allocator.PendingClaim claimWithRequest(String name, String req, String cls, Constraint... constraints) {
        return claim(name, List.of(constraints), request(req, cls, 1));
    }

    static Request request(String name, String cls, long count, DeviceSelector... selectors) {
        return Request.exactly(name, new ExactRequest(cls, List.of(selectors), AllocationMode.ExactCount, count, false,
                null, null));
    }

    static Request allRequest(String name, String cls, DeviceSelector... selectors) {
        return Request.exactly(name, new ExactRequest(cls, List.of(selectors), AllocationMode.All, 0, false, null, null));
    }

    /** A full-control exact request. */
    static Request exact(String name, String cls, AllocationMode mode, long count, boolean admin,
                         List<Toleration> tolerations, Map<String, String> capacity) {
        return Request.exactly(name, new ExactRequest(cls, null, mode, count, admin, tolerations, capacity));
    }

    static Request firstAvailable(String name, SubRequest... subs) {
        return Request.firstAvailable(name, List.of(subs));
    }

    static SubRequest sub(String name, String cls, long count, DeviceSelector... selectors) {
        return new SubRequest(name, cls, List.of(selectors), AllocationMode.ExactCount, count, null, null);
    }

    static SubRequest allSub(String name, String cls, DeviceSelector... selectors) {
        return new SubRequest(name, cls, List.of(selectors), AllocationMode.All, 0, null, null);
    }

    static SubRequest subFull(String name, String cls, long count, List<Toleration> tolerations, Map<String, String> capacity) {
        return new SubRequest(name, cls, null, AllocationMode.ExactCount, count, tolerations, capacity);
    }

    // ---- allocated state ------------------------------------------------------------------------------------------

    /** Snapshot allocations holding the devices exclusively ("driver/pool/device" each). */
    static List<AllocationResult> allocated(String... ids) {
        List<AllocationResult> out = new ArrayList<>();
        for (String id : ids) {
            String[] p = id.split("/");
            out.add(new AllocationResult(List.of(AllocationResult.DeviceResult.of("x", p[0], p[1], p[2])), null, null));
        }
        return out;
    }

    /** A snapshot share of a device consuming {@code capacity-0}. */
    static AllocationResult allocatedShare(String driver, String pool, String device, String amount) {
        return new AllocationResult(List.of(new AllocationResult.DeviceResult("x", driver, pool, device, false, null,
                "share-" + device, Map.of(CAPACITY0, amount), null, null)), null, null);
    }

    /** A node selector as a comparable set of requirement strings (term order, requirement order, value order free). */
    static TreeSet<String> normalize(List<NodeSelectorTerm> terms) {
        TreeSet<String> out = new TreeSet<>();
        if (terms == null) {
            return null;
        }
        for (int i = 0; i < terms.size(); i++) {
            for (NodeSelectorRequirement r : terms.get(i).matchExpressions()) {
                out.add(i + " expr " + r.key() + " " + r.operator() + " " + new TreeSet<>(r.values()));
            }
            for (NodeSelectorRequirement r : terms.get(i).matchFields()) {
                out.add(i + " field " + r.key() + " " + r.operator() + " " + new TreeSet<>(r.values()));
            }
        }
        return out;
    }
}
