package dev.muster.adapter.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.muster.core.decision.Assignment;
import dev.muster.core.decision.ClaimDecision;
import dev.muster.core.dra.AllocationResult;
import dev.muster.core.dra.ClaimConsumer;
import dev.muster.core.model.NodeSelectorRequirement;
import dev.muster.core.model.NodeSelectorTerm;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Explanation;
import dev.muster.core.decision.PodMessage;
import dev.muster.core.decision.PodStatus;
import dev.muster.core.model.Condition;
import dev.muster.core.model.PodRef;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code 200} body of {@code POST /v1/decisions} as dedicated records with a fixed field order:
 * the same result always encodes to the same bytes. Lists are always present ({@code []}), null fields are omitted.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"decisions", "pods"})
@Schema(name = "DecisionResponse")
public record DecisionResponse(List<DecisionDto> decisions, List<PodStatusDto> pods) {

    @JsonPropertyOrder({"namespace", "name"})
    @Schema(name = "ObjectRef")
    public record Ref(String namespace, String name) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"podGroup", "pod", "compositePodGroup", "outcome", "placements", "unschedulablePods",
            "victims", "nominations", "claims", "conditions", "message", "explanation"})
    @Schema(name = "Decision")
    public record DecisionDto(@Schema(description = "The PodGroup decided (absent in a plain pod's decision)")
                              Ref podGroup,
                              @Schema(description = "The plain pod decided, one that belongs to no group (absent in a "
                                      + "group's decision)") Ref pod,
                              @Schema(description = "The CompositePodGroup the group is a child of (absent for a group "
                                      + "outside any composite)") Ref compositePodGroup,
                              @Schema(enumeration = {"Scheduled", "Preempting", "Unschedulable", "WaitingForMembers",
                                      "PodGroupNotFound"}) String outcome,
                              List<PodNode> placements, List<PodMessageDto> unschedulablePods, List<PodNode> victims,
                              List<PodNode> nominations, List<ClaimDto> claims, List<ConditionDto> conditions,
                              String message, ExplanationDto explanation) {
    }

    @JsonPropertyOrder({"pod", "node"})
    @Schema(name = "PodNode")
    public record PodNode(Ref pod, String node) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"pod", "message"})
    @Schema(name = "PodMessage")
    public record PodMessageDto(Ref pod, String message) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"pod", "status", "message"})
    @Schema(name = "PodOutsideDecisions")
    public record PodStatusDto(Ref pod, String status, String message) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"type", "status", "reason", "message", "observedGeneration", "lastTransitionTime"})
    @Schema(name = "PodGroupCondition")
    public record ConditionDto(String type, String status, String reason, String message, Long observedGeneration,
                               String lastTransitionTime) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"claim", "generatedFrom", "allocation", "reservedFor"})
    @Schema(name = "ClaimDecision")
    public record ClaimDto(Ref claim, String generatedFrom, Allocation allocation, List<Consumer> reservedFor) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"devices", "nodeSelector"})
    @Schema(name = "AllocationResult", description = "resource.k8s.io/v1 AllocationResult: what the claim's "
            + "status.allocation should hold")
    public record Allocation(DeviceAllocation devices, NodeSelectorDto nodeSelector) {
    }

    @JsonPropertyOrder({"results", "config"})
    @Schema(name = "DeviceAllocationResult")
    public record DeviceAllocation(List<Device> results, List<DeviceConfig> config) {
    }

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"request", "driver", "pool", "device", "adminAccess", "tolerations", "shareID",
            "consumedCapacity", "bindingConditions", "bindingFailureConditions"})
    @Schema(name = "DeviceRequestAllocationResult")
    public record Device(String request, String driver, String pool, String device, Boolean adminAccess,
                         List<DeviceToleration> tolerations, String shareID, Map<String, String> consumedCapacity,
                         List<String> bindingConditions, List<String> bindingFailureConditions) {
    }

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"key", "operator", "value", "effect", "tolerationSeconds"})
    @Schema(name = "DeviceToleration")
    public record DeviceToleration(String key, String operator, String value, String effect, Long tolerationSeconds) {
    }

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"source", "requests", "opaque"})
    @Schema(name = "DeviceAllocationConfiguration")
    public record DeviceConfig(String source, List<String> requests, OpaqueConfig opaque) {
    }

    @JsonPropertyOrder({"driver", "parameters"})
    @Schema(name = "OpaqueDeviceConfiguration")
    public record OpaqueConfig(String driver, @JsonRawValue Object parameters) {
    }

    @Schema(name = "AllocatedNodeSelector", description = "core/v1 NodeSelector")
    public record NodeSelectorDto(List<NodeSelectorTermDto> nodeSelectorTerms) {
    }

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"matchExpressions", "matchFields"})
    @Schema(name = "AllocatedNodeSelectorTerm")
    public record NodeSelectorTermDto(List<Requirement> matchExpressions, List<Requirement> matchFields) {
    }

    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    @JsonPropertyOrder({"key", "operator", "values"})
    @Schema(name = "AllocatedNodeSelectorRequirement")
    public record Requirement(String key, String operator, List<String> values) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"apiGroup", "resource", "name", "uid"})
    @Schema(name = "ReservedFor")
    public record Consumer(String apiGroup, String resource, String name, String uid) {
    }

    @JsonPropertyOrder({"nodes", "reasons", "members", "search", "placement", "placements", "warnings", "shortage"})
    @Schema(name = "Explanation", description = "Structured reasons (options.explain): nodes in the snapshot, how many "
            + "nodes each reason excluded for the member that decided the outcome, each unplaced member's reasons, "
            + "the bounded search's report, and for a topology-constrained group the chosen placement and every "
            + "candidate's report; `warnings`: what the request says about the group that did not stop the decision "
            + "(a PodGroup whose template reference names a missing Workload or template, or whose policy differs "
            + "from its template); `shortage`: for an Unschedulable group, what it is short of")
    public record ExplanationDto(int nodes, List<ReasonCount> reasons, List<Member> members, Search search,
                                 String placement, List<PlacementCandidate> placements,
                                 @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) ShortageDto shortage) {
    }

    @JsonPropertyOrder({"needed", "fits", "closest", "excluded", "remedies"})
    @Schema(name = "Shortage", description = "What an Unschedulable group is short of, from the trials its cycle "
            + "ran: `needed` members at once (a gang: minCount less its bound members; basic: 1); `fits`: each "
            + "evaluated placement (`*` = all nodes) and how many of them its trial placed; `closest`: the placement "
            + "that placed the most; `excluded`: for the first member that fitted nowhere there, nodes excluded per "
            + "reason; `remedies`: the smallest changes found, by requests (more nodes like one that holds members, "
            + "or lower-priority pods whose eviction would make room)")
    public record ShortageDto(int needed, List<PlacementFit> fits, String closest, List<ReasonCount> excluded,
                              List<String> remedies) {
    }

    @JsonPropertyOrder({"placement", "fits"})
    @Schema(name = "PlacementFit")
    public record PlacementFit(String placement, int fits) {
    }

    @JsonPropertyOrder({"name", "tier", "nodes", "feasible", "pruned", "score", "placed", "message"})
    @Schema(name = "PlacementCandidate", description = "A candidate topology domain: `name` is key=value (or `*` for "
            + "the preferred fallback), `tier` its level (0 = tightest), `pruned` when its free capacity could not "
            + "hold the members needed, `score` the total PlacementScore (negated stranded capacity with BestFit)")
    public record PlacementCandidate(String name, int tier, int nodes, boolean feasible, boolean pruned, long score,
                                     int placed, String message) {
    }

    @JsonPropertyOrder({"reason", "nodes"})
    @Schema(name = "ReasonCount")
    public record ReasonCount(String reason, int nodes) {
    }

    @JsonPropertyOrder({"pod", "reasons"})
    @Schema(name = "MemberExplanation")
    public record Member(Ref pod, List<ReasonCount> reasons) {
    }

    @JsonPropertyOrder({"ran", "steps", "budget", "exhausted", "found"})
    @Schema(name = "Search")
    public record Search(boolean ran, long steps, long budget, boolean exhausted, boolean found) {
    }

    // ---------------------------------------------------------------- from the core result

    public static DecisionResponse of(DecisionResult r) {
        List<DecisionDto> decisions = new ArrayList<>(r.decisions().size());
        for (Decision d : r.decisions()) {
            decisions.add(decision(d));
        }
        List<PodStatusDto> pods = new ArrayList<>(r.pods().size());
        for (PodStatus p : r.pods()) {
            pods.add(new PodStatusDto(ref(p.pod()), p.status(), p.message()));
        }
        return new DecisionResponse(decisions, pods);
    }

    private static DecisionDto decision(Decision d) {
        List<ClaimDto> claims = new ArrayList<>(d.claims().size());
        for (ClaimDecision c : d.claims()) {
            claims.add(claim(c));
        }
        List<ConditionDto> conditions = new ArrayList<>(d.conditions().size());
        for (Condition c : d.conditions()) {
            conditions.add(new ConditionDto(c.type(), c.status(), c.reason(), c.message(), c.observedGeneration(),
                    c.lastTransitionTime()));
        }
        List<PodMessageDto> unschedulable = new ArrayList<>(d.unschedulablePods().size());
        for (PodMessage m : d.unschedulablePods()) {
            unschedulable.add(new PodMessageDto(ref(m.pod()), m.message()));
        }
        return new DecisionDto(d.podGroup() == null ? null : new Ref(d.podGroup().namespace(), d.podGroup().name()),
                ref(d.pod()),
                d.compositePodGroup() == null ? null
                        : new Ref(d.compositePodGroup().namespace(), d.compositePodGroup().name()),
                d.outcome() == null ? null : d.outcome().name(), podNodes(d.placements()), unschedulable,
                podNodes(d.victims()), podNodes(d.nominations()), claims, conditions, d.message(),
                explanation(d.explanation()));
    }

    private static ClaimDto claim(ClaimDecision c) {
        List<Consumer> reserved = new ArrayList<>(c.reservedFor().size());
        for (ClaimConsumer r : c.reservedFor()) {
            reserved.add(new Consumer(r.apiGroup(), r.resource(), r.name(), r.uid().isEmpty() ? null : r.uid()));
        }
        return new ClaimDto(ref(c.claim()), c.generatedFrom(), allocation(c.allocation()), reserved);
    }

    private static Allocation allocation(AllocationResult a) {
        List<Device> results = new ArrayList<>(a.devices().size());
        for (AllocationResult.DeviceResult d : a.devices()) {
            List<DeviceToleration> tolerations = new ArrayList<>(d.tolerations().size());
            for (var t : d.tolerations()) {
                tolerations.add(new DeviceToleration(t.key(), t.operator().name(), t.value(), t.effect(),
                        t.tolerationSeconds()));
            }
            results.add(new Device(d.request(), d.driver(), d.pool(), d.device(), d.adminAccess() ? true : null,
                    tolerations, d.shareID(), d.consumedCapacity(), d.bindingConditions(),
                    d.bindingFailureConditions()));
        }
        List<DeviceConfig> config = new ArrayList<>(a.config().size());
        for (AllocationResult.AllocationConfig k : a.config()) {
            config.add(new DeviceConfig(k.source().name(), k.requests(),
                    new OpaqueConfig(k.opaque().driver(), k.opaque().parameters())));
        }
        return new Allocation(new DeviceAllocation(results, config), nodeSelector(a.nodeSelector()));
    }

    private static NodeSelectorDto nodeSelector(List<NodeSelectorTerm> terms) {
        if (terms == null) {
            return null;
        }
        List<NodeSelectorTermDto> out = new ArrayList<>(terms.size());
        for (NodeSelectorTerm t : terms) {
            out.add(new NodeSelectorTermDto(requirements(t.matchExpressions()), requirements(t.matchFields())));
        }
        return new NodeSelectorDto(out);
    }

    private static List<Requirement> requirements(List<NodeSelectorRequirement> rs) {
        List<Requirement> out = new ArrayList<>(rs.size());
        for (NodeSelectorRequirement r : rs) {
            out.add(new Requirement(r.key(), r.operator().name(), r.values()));
        }
        return out;
    }

    private static ExplanationDto explanation(Explanation e) {
        if (e == null) {
            return null;
        }
        List<Member> members = new ArrayList<>();
        if (e.members() != null) {
            for (Explanation.Member m : e.members()) {
                members.add(new Member(ref(m.pod()), reasons(m.reasons())));
            }
        }
        Explanation.Search s = e.search();
        List<PlacementCandidate> candidates = new ArrayList<>();
        if (e.placements() != null) {
            for (Explanation.Candidate c : e.placements()) {
                candidates.add(new PlacementCandidate(c.name(), c.tier(), c.nodes(), c.feasible(), c.pruned(),
                        c.score(), c.placed(), c.message()));
            }
        }
        return new ExplanationDto(e.nodes(), reasons(e.reasons()), members,
                s == null ? null : new Search(s.ran(), s.steps(), s.budget(), s.exhausted(), s.found()),
                e.placement(), candidates, e.warnings(), shortage(e.shortage()));
    }

    private static ShortageDto shortage(Explanation.Shortage s) {
        if (s == null) {
            return null;
        }
        List<PlacementFit> fits = new ArrayList<>();
        for (Explanation.Fit f : s.fits()) {
            fits.add(new PlacementFit(f.placement(), f.fits()));
        }
        return new ShortageDto(s.needed(), fits, s.closest(), reasons(s.excluded()), s.remedies());
    }

    private static List<ReasonCount> reasons(List<Explanation.ReasonCount> in) {
        List<ReasonCount> out = new ArrayList<>(in == null ? 0 : in.size());
        if (in != null) {
            for (Explanation.ReasonCount r : in) {
                out.add(new ReasonCount(r.reason(), r.nodes()));
            }
        }
        return out;
    }

    private static List<PodNode> podNodes(List<Assignment> in) {
        List<PodNode> out = new ArrayList<>(in.size());
        for (Assignment a : in) {
            out.add(new PodNode(ref(a.pod()), a.node()));
        }
        return out;
    }

    private static Ref ref(PodRef p) {
        return p == null ? null : new Ref(p.namespace(), p.name());
    }
}
