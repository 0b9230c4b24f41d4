package dev.muster.adapter.grpc;

import com.google.protobuf.Value;
import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.ClaimDecision;
import dev.muster.core.dra.ClaimConsumer;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Explanation;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.decision.PodStatus;
import dev.muster.core.model.Condition;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.PodRef;
import dev.muster.grpc.v1.AllocationResult;
import dev.muster.grpc.v1.DecideResponse;
import dev.muster.grpc.v1.DeviceAllocationConfiguration;
import dev.muster.grpc.v1.DeviceAllocationResult;
import dev.muster.grpc.v1.DeviceRequestAllocationResult;
import dev.muster.grpc.v1.DeviceToleration;
import dev.muster.grpc.v1.NodeSelector;
import dev.muster.grpc.v1.NodeSelectorRequirement;
import dev.muster.grpc.v1.NodeSelectorTerm;
import dev.muster.grpc.v1.OpaqueDeviceConfiguration;
import dev.muster.grpc.v1.MemberReasons;
import dev.muster.grpc.v1.ObjectRef;
import dev.muster.grpc.v1.PlacementCandidate;
import dev.muster.grpc.v1.PodStatusEntry;
import dev.muster.grpc.v1.ReasonCount;
import dev.muster.grpc.v1.ResourceClaimConsumerReference;
import dev.muster.grpc.v1.SearchReport;
import dev.muster.grpc.v1.UnschedulablePod;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link DecisionResult} → {@link DecideResponse}. Keeps the engine's order for every list (decision order,
 * pods sorted by reference), and sorts map keys, so the same result always gives the same bytes.
 * A null string becomes "" (proto3's "not set"), a null message stays unset.
 */
public final class GrpcResponseMapper {
    private GrpcResponseMapper() {
    }

    public static DecideResponse toResponse(DecisionResult result) {
        DecideResponse.Builder b = DecideResponse.newBuilder();
        for (Decision d : result.decisions()) {
            b.addDecisions(decision(d));
        }
        for (PodStatus p : result.pods()) {
            b.addPods(PodStatusEntry.newBuilder().setPod(ref(p.pod())).setStatus(nz(p.status()))
                    .setMessage(nz(p.message())));
        }
        return b.build();
    }

    static dev.muster.grpc.v1.Decision decision(Decision d) {
        dev.muster.grpc.v1.Decision.Builder b = dev.muster.grpc.v1.Decision.newBuilder()
                .setOutcome(d.outcome().name())
                .setMessage(nz(d.message()));
        if (d.podGroup() != null) {
            b.setPodGroup(ref(d.podGroup()));
        }
        if (d.pod() != null) {
            b.setPod(ref(d.pod()));
        }
        for (Assignment a : d.placements()) {
            b.addPlacements(assignment(a));
        }
        for (PodMessage m : d.unschedulablePods()) {
            b.addUnschedulablePods(UnschedulablePod.newBuilder().setPod(ref(m.pod())).setMessage(nz(m.message())));
        }
        for (Assignment a : d.victims()) {
            b.addVictims(assignment(a));
        }
        for (Assignment a : d.nominations()) {
            b.addNominations(assignment(a));
        }
        for (ClaimDecision c : d.claims()) {
            b.addClaims(claim(c));
        }
        for (Condition c : d.conditions()) {
            b.addConditions(condition(c));
        }
        if (d.explanation() != null) {
            b.setExplanation(explanation(d.explanation()));
        }
        if (d.compositePodGroup() != null) {
            b.setCompositePodGroup(ref(d.compositePodGroup()));
        }
        return b.build();
    }

    private static ObjectRef ref(PodRef r) {
        return ObjectRef.newBuilder().setNamespace(r.namespace()).setName(r.name()).build();
    }

    private static ObjectRef ref(GroupRef r) {
        return ObjectRef.newBuilder().setNamespace(r.namespace()).setName(r.name()).build();
    }

    private static dev.muster.grpc.v1.Assignment assignment(Assignment a) {
        return dev.muster.grpc.v1.Assignment.newBuilder().setPod(ref(a.pod())).setNode(nz(a.node())).build();
    }

    private static dev.muster.grpc.v1.Condition condition(Condition c) {
        dev.muster.grpc.v1.Condition.Builder b = dev.muster.grpc.v1.Condition.newBuilder()
                .setType(nz(c.type())).setStatus(nz(c.status())).setReason(nz(c.reason()))
                .setMessage(nz(c.message())).setLastTransitionTime(nz(c.lastTransitionTime()));
        if (c.observedGeneration() != null) {
            b.setObservedGeneration(c.observedGeneration());
        }
        return b.build();
    }

    private static dev.muster.grpc.v1.ClaimDecision claim(ClaimDecision c) {
        dev.muster.grpc.v1.ClaimDecision.Builder b = dev.muster.grpc.v1.ClaimDecision.newBuilder()
                .setClaim(ref(c.claim())).setGeneratedFrom(nz(c.generatedFrom()))
                .setAllocation(allocation(c.allocation()));
        for (ClaimConsumer r : c.reservedFor()) {
            b.addReservedFor(ResourceClaimConsumerReference.newBuilder().setApiGroup(nz(r.apiGroup()))
                    .setResource(nz(r.resource())).setName(nz(r.name())).setUid(nz(r.uid())));
        }
        return b.build();
    }

    private static AllocationResult allocation(dev.muster.core.dra.AllocationResult a) {
        DeviceAllocationResult.Builder devices = DeviceAllocationResult.newBuilder();
        for (dev.muster.core.dra.AllocationResult.DeviceResult d : a.devices()) {
            DeviceRequestAllocationResult.Builder r = DeviceRequestAllocationResult.newBuilder()
                    .setRequest(d.request()).setDriver(d.driver()).setPool(d.pool()).setDevice(d.device())
                    .setAdminAccess(d.adminAccess()).setShareId(nz(d.shareID()))
                    .putAllConsumedCapacity(d.consumedCapacity())
                    .addAllBindingConditions(d.bindingConditions())
                    .addAllBindingFailureConditions(d.bindingFailureConditions());
            for (var t : d.tolerations()) {
                DeviceToleration.Builder tb = DeviceToleration.newBuilder().setKey(t.key())
                        .setOperator(t.operator().name()).setValue(t.value()).setEffect(t.effect());
                if (t.tolerationSeconds() != null) {
                    tb.setTolerationSeconds(t.tolerationSeconds());
                }
                r.addTolerations(tb);
            }
            devices.addResults(r);
        }
        for (dev.muster.core.dra.AllocationResult.AllocationConfig k : a.config()) {
            devices.addConfig(DeviceAllocationConfiguration.newBuilder().setSource(k.source().name())
                    .addAllRequests(k.requests()).setOpaque(OpaqueDeviceConfiguration.newBuilder()
                            .setDriver(k.opaque().driver()).setParameters(jsonValue(k.opaque().parameters()))));
        }
        AllocationResult.Builder out = AllocationResult.newBuilder().setDevices(devices);
        if (a.nodeSelector() != null) {
            NodeSelector.Builder sel = NodeSelector.newBuilder();
            for (dev.muster.core.model.NodeSelectorTerm t : a.nodeSelector()) {
                sel.addNodeSelectorTerms(NodeSelectorTerm.newBuilder()
                        .addAllMatchExpressions(requirements(t.matchExpressions()))
                        .addAllMatchFields(requirements(t.matchFields())));
            }
            out.setNodeSelector(sel);
        }
        return out.build();
    }

    private static List<NodeSelectorRequirement> requirements(List<dev.muster.core.model.NodeSelectorRequirement> rs) {
        List<NodeSelectorRequirement> out = new ArrayList<>(rs.size());
        for (dev.muster.core.model.NodeSelectorRequirement r : rs) {
            out.add(NodeSelectorRequirement.newBuilder().setKey(r.key()).setOperator(r.operator().name())
                    .addAllValues(r.values()).build());
        }
        return out;
    }

    /** A driver's raw JSON parameters as a protobuf Value (null when they do not parse, which validation prevents). */
    private static Value jsonValue(String json) {
        Value.Builder v = Value.newBuilder();
        try {
            com.google.protobuf.util.JsonFormat.parser().merge(json, v);
        } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            v.setNullValue(com.google.protobuf.NullValue.NULL_VALUE);
        }
        return v.build();
    }

    private static dev.muster.grpc.v1.Explanation explanation(Explanation e) {
        dev.muster.grpc.v1.Explanation.Builder b = dev.muster.grpc.v1.Explanation.newBuilder()
                .setNodes(e.nodes()).setPlacement(nz(e.placement()));
        for (Explanation.ReasonCount r : e.reasons()) {
            b.addReasons(reason(r));
        }
        for (Explanation.Member m : e.members()) {
            MemberReasons.Builder mb = MemberReasons.newBuilder().setPod(ref(m.pod()));
            for (Explanation.ReasonCount r : m.reasons()) {
                mb.addReasons(reason(r));
            }
            b.addMembers(mb);
        }
        Explanation.Search s = e.search();
        if (s != null) {
            b.setSearch(SearchReport.newBuilder().setRan(s.ran()).setSteps(s.steps()).setBudget(s.budget())
                    .setExhausted(s.exhausted()).setFound(s.found()));
        }
        if (e.placements() != null) {
            for (Explanation.Candidate c : e.placements()) {
                b.addPlacements(PlacementCandidate.newBuilder().setName(nz(c.name())).setTier(c.tier())
                        .setNodes(c.nodes()).setFeasible(c.feasible()).setPruned(c.pruned()).setScore(c.score())
                        .setPlaced(c.placed()).setMessage(nz(c.message())));
            }
        }
        b.addAllWarnings(e.warnings());
        Explanation.Shortage sh = e.shortage();
        if (sh != null) {
            dev.muster.grpc.v1.Shortage.Builder sb = dev.muster.grpc.v1.Shortage.newBuilder()
                    .setNeeded(sh.needed()).setClosest(nz(sh.closest())).addAllRemedies(sh.remedies());
            for (Explanation.Fit f : sh.fits()) {
                sb.addFits(dev.muster.grpc.v1.PlacementFit.newBuilder().setPlacement(nz(f.placement()))
                        .setFits(f.fits()));
            }
            for (Explanation.ReasonCount r : sh.excluded()) {
                sb.addExcluded(reason(r));
            }
            b.setShortage(sb);
        }
        return b.build();
    }

    private static ReasonCount reason(Explanation.ReasonCount r) {
        return ReasonCount.newBuilder().setReason(nz(r.reason())).setNodes(r.nodes()).build();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
