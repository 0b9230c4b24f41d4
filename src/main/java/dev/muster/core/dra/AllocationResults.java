package dev.muster.core.dra;

import dev.muster.core.model.Node;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.model.NodeSelectors;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Turns a found solution into one {@link AllocationResult} per claim, as upstream shapes it. */
final class AllocationResults {
    private AllocationResults() {
    }

    static List<AllocationResult> build(DeviceSearch search, DeviceSearch.ClaimPlan[] plans,
                                        List<List<DeviceSearch.Pick>> picks, Node node) {
        List<AllocationResult> out = new ArrayList<>(plans.length);
        for (int ci = 0; ci < plans.length; ci++) {
            DeviceSearch.ClaimPlan plan = plans[ci];
            List<AllocationResult.DeviceResult> devices = new ArrayList<>();
            List<DeviceSearch.Pick> claimPicks = picks.get(ci);
            for (int i = 0; i < claimPicks.size(); i++) {
                DeviceSearch.Pick p = claimPicks.get(i);
                Device d = p.device().device();
                String shareID = null;
                Map<String, String> consumed = null;
                if (p.share()) {
                    shareID = shareId(plan.claim.key(), p.spec().fullName, p.device().id(), i);
                    consumed = new LinkedHashMap<>();
                    for (Map.Entry<String, java.math.BigDecimal> e : p.consumedByKey().entrySet()) {
                        consumed.put(e.getKey(), Capacities.render(e.getValue()));
                    }
                }
                devices.add(new AllocationResult.DeviceResult(p.spec().fullName, p.device().id().driver(),
                        p.device().id().pool(), p.device().id().device(), p.spec().adminAccess, p.spec().tolerations,
                        shareID, consumed, d.bindingConditions(), d.bindingFailureConditions()));
            }
            out.add(new AllocationResult(devices, configs(plan), nodeSelector(plan, claimPicks, node)));
        }
        return out;
    }

    /** The picked devices of each claim, in the order {@link #build} lists them. */
    static List<PoolDevice[]> devices(List<List<DeviceSearch.Pick>> picks) {
        List<PoolDevice[]> out = new ArrayList<>(picks.size());
        for (List<DeviceSearch.Pick> claimPicks : picks) {
            PoolDevice[] devices = new PoolDevice[claimPicks.size()];
            for (int i = 0; i < devices.length; i++) {
                devices[i] = claimPicks.get(i).device();
            }
            out.add(devices);
        }
        return out;
    }

    /**
     * A share's ID: a name-based (version 3) UUID of claim, request, device and result position, so the same
     * decision always names the same share and two shares of one claim never collide.
     */
    static String shareId(String claimKey, String request, AllocatedDevice device, int position) {
        String name = claimKey + "\n" + request + "\n" + device + "\n" + position;
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)).toString();
    }

    /**
     * Class configs first, each class's once with every request using the class listed (in request order); then
     * the claim's configs that apply: those without requests, and those naming a request or the chosen subrequest
     * ({@code req/sub}); a config for a subrequest that was not chosen is left out.
     */
    private static List<AllocationResult.AllocationConfig> configs(DeviceSearch.ClaimPlan plan) {
        record Entry(AllocationResult.ConfigSource source, List<String> requests, OpaqueConfig opaque) {
        }
        if (plan.claim.spec().config().isEmpty() && noClassConfig(plan)) {
            return List.of(); // the common case: nothing to configure, nothing to build
        }
        List<Entry> entries = new ArrayList<>();
        Map<String, int[]> classRanges = new HashMap<>();
        for (int ri = 0; ri < plan.requests.length; ri++) {
            DeviceSearch.Spec s = plan.requests[ri][plan.firstAvailable[ri] ? plan.currentSub[ri] : 0];
            int[] range = classRanges.get(s.cls.name());
            if (range != null) {
                for (int i = range[0]; i < range[1]; i++) {
                    entries.get(i).requests().add(s.fullName);
                }
                continue;
            }
            int start = entries.size();
            for (OpaqueConfig c : s.cls.config()) {
                entries.add(new Entry(AllocationResult.ConfigSource.FromClass, new ArrayList<>(List.of(s.fullName)), c));
            }
            classRanges.put(s.cls.name(), new int[]{start, entries.size()});
        }
        List<ResourceClaimSpec.Request> requests = plan.claim.spec().requests();
        for (ResourceClaimSpec.ClaimConfig c : plan.claim.spec().config()) {
            boolean applies = c.requests().isEmpty();
            for (int ri = 0; ri < requests.size() && !applies; ri++) {
                applies = c.requests().contains(requests.get(ri).name()) || plan.firstAvailable[ri]
                        && c.requests().contains(plan.requests[ri][plan.currentSub[ri]].fullName);
            }
            if (applies) {
                entries.add(new Entry(AllocationResult.ConfigSource.FromClaim, new ArrayList<>(c.requests()), c.opaque()));
            }
        }
        List<AllocationResult.AllocationConfig> out = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            out.add(new AllocationResult.AllocationConfig(e.source(), e.requests(), e.opaque()));
        }
        return out;
    }

    private static boolean noClassConfig(DeviceSearch.ClaimPlan plan) {
        for (int ri = 0; ri < plan.requests.length; ri++) {
            if (!plan.requests[ri][plan.firstAvailable[ri] ? plan.currentSub[ri] : 0].cls.config().isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code metadata.name In [node]} when a chosen device is local to a node (slice or device nodeName, or
     * bindsToNode); else one term holding every requirement of the devices' single-term selectors (duplicates once);
     * else null (usable everywhere).
     */
    private static List<NodeSelectorTerm> nodeSelector(DeviceSearch.ClaimPlan plan, List<DeviceSearch.Pick> picks,
                                                       Node node) {
        List<NodeSelectorRequirement> fields = new ArrayList<>();
        List<NodeSelectorRequirement> exprs = new ArrayList<>();
        for (DeviceSearch.Pick p : picks) {
            ResourceSlice slice = p.device().slice();
            Device d = p.device().device();
            String nodeName = slice.perDeviceNodeSelection() ? d.nodeName() : slice.nodeName();
            List<NodeSelectorTerm> selector = slice.perDeviceNodeSelection() ? d.nodeSelector() : slice.nodeSelector();
            if (nodeName != null || d.bindsToNode()) {
                return List.of(new NodeSelectorTerm(null, List.of(new NodeSelectorRequirement(
                        NodeSelectors.FIELD_NODE_NAME, NodeSelectorRequirement.Operator.In, List.of(node.name())))));
            }
            if (selector != null && !selector.isEmpty()) {
                if (selector.size() > 1) {
                    throw new DeviceSearch.Abort("create NodeSelector for claim " + plan.claim.key()
                            + ": unsupported ResourceSlice.NodeSelector with " + selector.size() + " terms");
                }
                addNew(selector.get(0).matchFields(), fields);
                addNew(selector.get(0).matchExpressions(), exprs);
            }
        }
        if (fields.isEmpty() && exprs.isEmpty()) {
            return null;
        }
        return List.of(new NodeSelectorTerm(exprs, fields));
    }

    private static void addNew(List<NodeSelectorRequirement> from, List<NodeSelectorRequirement> to) {
        for (NodeSelectorRequirement r : from) {
            boolean present = false;
            for (NodeSelectorRequirement have : to) {
                if (have.key().equals(r.key()) && have.operator() == r.operator()
                        && new HashSet<>(have.values()).equals(new HashSet<>(r.values()))) {
                    present = true;
                    break;
                }
            }
            if (!present) {
                to.add(r);
            }
        }
    }
}
