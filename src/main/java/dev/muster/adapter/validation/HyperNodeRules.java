package dev.muster.adapter.validation;

import dev.muster.adapter.kube.GangShape;
import dev.muster.adapter.kube.HyperNodeTiers;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.RequestDocument;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Volcano's network topology: {@code snapshot.hyperNodes} ({@code topology.volcano.sh/v1alpha1} HyperNodes) and the
 * {@code spec.networkTopology} of Volcano PodGroups.
 * <ul>
 *   <li>A HyperNode: a DNS subdomain name (unique: HyperNodes are cluster-scoped), {@code spec.tier} at least 1,
 *   one {@code spec.tierName} per tier; each member a {@code type} of {@code Node} or {@code HyperNode} and a
 *   selector with exactly one of {@code exactMatch} (a DNS subdomain name), {@code regexMatch} (a pattern that
 *   compiles, at most {@value #MAX_PATTERN} characters) and {@code labelMatch} (nodes only).</li>
 *   <li>When every HyperNode passes those, what the tiers they make must hold ({@link HyperNodeTiers}): no cycle of
 *   member HyperNodes, a node in at most one HyperNode per tier, a node's own tier label naming the HyperNode that
 *   holds it.</li>
 *   <li>{@code networkTopology}: {@code mode} {@code hard} or {@code soft}; {@code highestTierAllowed} at least 1;
 *   not both it and {@code highestTierName}, which must be the {@code tierName} of a HyperNode of the snapshot; and
 *   not beside Muster's own topology annotations (two sources of one rule).</li>
 * </ul>
 */
final class HyperNodeRules implements ObjectFamily {
    static final String API_VERSION = "topology.volcano.sh/v1alpha1";
    static final int MAX_PATTERN = 1024;
    private static final List<String> MEMBER_TYPES = List.of("Node", "HyperNode");
    private static final List<String> MODES = List.of("hard", "soft");
    private static final List<String> TOPOLOGY_ANNOTATIONS = List.of(
            dev.muster.core.model.TopologyAnnotations.LEVELS, dev.muster.core.model.TopologyAnnotations.MODE);
    private static final String ONE_SELECTOR = "`exactMatch`, `regexMatch`, `labelMatch`";
    private static final ObjectLists.Kind<Kube.HyperNode> HYPER_NODES = new ObjectLists.Kind<>(".hyperNodes",
            "must be a HyperNode object", false, Kube.HyperNode::metadata);

    @Override
    public void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c) {
        int before = c.total();
        ObjectLists.check(HYPER_NODES, s.hyperNodes(), limits.maxHyperNodes(), p, HyperNodeRules::hyperNode, c);
        List<Kube.HyperNode> hns = s.hyperNodes();
        Map<String, Integer> tierNames = new HashMap<>();
        if (hns != null && hns.size() <= limits.maxHyperNodes()) {
            tierNames(hns, p, c);
            if (c.total() == before) {
                tiers(HyperNodeTiers.of(hns, s.nodes()), p, c);
            }
            for (Kube.HyperNode h : hns) {
                if (h != null && h.spec() != null && h.spec().tierName() != null && h.spec().tier() != null) {
                    tierNames.putIfAbsent(h.spec().tierName(), h.spec().tier());
                }
            }
        }
        if (s.podGroups() != null && s.podGroups().size() <= limits.maxPodGroups()) {
            networkTopologies(s.podGroups(), tierNames, p, c);
        }
    }

    /** {@code p} is the HyperNode's path. */
    private static void hyperNode(Kube.HyperNode h, FieldPath p, Causes c) {
        if (h.apiVersion() != null && !h.apiVersion().isEmpty() && !API_VERSION.equals(h.apiVersion())) {
            c.notSupported(p.at(".apiVersion"), h.apiVersion(), List.of(API_VERSION));
        }
        if (h.kind() != null && !h.kind().isEmpty() && !"HyperNode".equals(h.kind())) {
            c.notSupported(p.at(".kind"), h.kind(), List.of("HyperNode"));
        }
        Kube.HyperNodeSpec spec = h.spec();
        if (spec == null) {
            c.required(p.at(".spec"), "a HyperNode needs a spec with a tier");
            return;
        }
        if (spec.tier() == null) {
            c.required(p.at(".spec.tier"), "a HyperNode needs a tier (1 the tightest)");
        } else if (spec.tier() < 1) {
            c.invalid(p.at(".spec.tier"), spec.tier(), "must be greater than or equal to 1");
        }
        List<Kube.HyperNodeMember> members = spec.members();
        if (members == null) {
            return;
        }
        p.field(".spec.members");
        for (int m = 0; m < members.size(); m++) {
            p.index(m);
            member(members.get(m), p, c);
            p.pop();
        }
        p.pop();
    }

    /** {@code p} is the member's path. */
    private static void member(Kube.HyperNodeMember m, FieldPath p, Causes c) {
        if (m == null) {
            c.required(p.at(""), "must be a member: a type and a selector");
            return;
        }
        if (m.type() == null || m.type().isEmpty()) {
            c.required(p.at(".type"), "a member needs a type: Node or HyperNode");
        } else if (!MEMBER_TYPES.contains(m.type())) {
            c.notSupported(p.at(".type"), m.type(), MEMBER_TYPES);
        }
        Kube.MemberSelector s = m.selector();
        int set = s == null ? 0 : (s.exactMatch() != null ? 1 : 0) + (s.regexMatch() != null ? 1 : 0)
                + (s.labelMatch() != null ? 1 : 0);
        if (set == 0) {
            c.required(p.at(".selector"), "must specify one of: " + ONE_SELECTOR);
            return;
        }
        if (set > 1) {
            c.invalid(p.at(".selector"), selectorsSet(s), "must specify exactly one of: " + ONE_SELECTOR);
            return;
        }
        if (s.exactMatch() != null) {
            String name = s.exactMatch().name();
            if (name == null || name.isEmpty()) {
                c.required(p.at(".selector.exactMatch.name"), "the name of the " + typeName(m) + " to match");
            } else if (!Names.isDnsSubdomain(name)) {
                c.invalid(p.at(".selector.exactMatch.name"), name, Names.DNS_SUBDOMAIN_MESSAGE);
            }
        } else if (s.regexMatch() != null) {
            pattern(s.regexMatch().pattern(), p, c);
        } else if ("HyperNode".equals(m.type())) {
            c.forbidden(p.at(".selector.labelMatch"), "labelMatch selects nodes only: select member HyperNodes "
                    + "with exactMatch or regexMatch");
        } else {
            FieldRules.labelSelector(s.labelMatch(), p, ".selector.labelMatch", c);
        }
    }

    private static String typeName(Kube.HyperNodeMember m) {
        return "HyperNode".equals(m.type()) ? "HyperNode" : "node";
    }

    private static String selectorsSet(Kube.MemberSelector s) {
        StringBuilder sb = new StringBuilder("{");
        if (s.exactMatch() != null) {
            sb.append("`exactMatch`");
        }
        if (s.regexMatch() != null) {
            sb.append(sb.length() > 1 ? ", " : "").append("`regexMatch`");
        }
        if (s.labelMatch() != null) {
            sb.append(sb.length() > 1 ? ", " : "").append("`labelMatch`");
        }
        return sb.append('}').toString();
    }

    private static void pattern(String pattern, FieldPath p, Causes c) {
        String field = p.at(".selector.regexMatch.pattern");
        if (pattern == null || pattern.isEmpty()) {
            c.required(field, "a regular expression the names of the members contain a match of");
            return;
        }
        if (pattern.length() > MAX_PATTERN) {
            c.invalid(field, pattern.substring(0, 64) + "...", "must be no more than " + MAX_PATTERN
                    + " characters");
            return;
        }
        try {
            Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            c.invalid(field, pattern, "must be a valid regular expression: " + e.getDescription()
                    + (e.getIndex() >= 0 ? " near index " + e.getIndex() : ""));
        }
    }

    /** One tier per {@code tierName}: the HyperNodes naming one tier must agree on its number. */
    private static void tierNames(List<Kube.HyperNode> hns, FieldPath p, Causes c) {
        Map<String, Kube.HyperNode> first = new HashMap<>();
        for (int i = 0; i < hns.size(); i++) {
            Kube.HyperNode h = hns.get(i);
            if (h == null || h.spec() == null || h.spec().tierName() == null || h.spec().tierName().isEmpty()
                    || h.spec().tier() == null) {
                continue;
            }
            Kube.HyperNode other = first.putIfAbsent(h.spec().tierName(), h);
            if (other != null && !other.spec().tier().equals(h.spec().tier())) {
                // a HyperNode without a name is already reported; it is then named by its place in the list
                String name = other.metadata() != null && other.metadata().name() != null ? other.metadata().name()
                        : p.at(".hyperNodes", hns.indexOf(other));
                c.invalid(p.at(".hyperNodes", i) + ".spec.tierName", h.spec().tierName(), "HyperNode "
                        + name + " names tier " + other.spec().tier() + " so; a tier name stands for one tier");
            }
        }
    }

    private static void tiers(HyperNodeTiers.Result r, FieldPath p, Causes c) {
        for (HyperNodeTiers.Problem problem : r.problems()) {
            c.invalid(p.at(".hyperNodes", problem.hyperNode()) + problem.field(), problem.value(),
                    problem.message());
        }
    }

    private static void networkTopologies(List<Kube.PodGroup> groups, Map<String, Integer> tierNames, FieldPath p,
                                          Causes c) {
        for (int i = 0; i < groups.size(); i++) {
            Kube.PodGroup g = groups.get(i);
            if (g == null || g.spec() == null || g.spec().networkTopology() == null
                    || GangShape.ofPodGroup(g) != GangShape.VOLCANO) {
                continue;
            }
            Kube.NetworkTopology nt = g.spec().networkTopology();
            String at = p.at(".podGroups", i);
            String field = at + ".spec.networkTopology";
            if (nt.mode() != null && !nt.mode().isEmpty() && !MODES.contains(nt.mode())) {
                c.notSupported(field + ".mode", nt.mode(), MODES);
            }
            boolean named = nt.highestTierName() != null && !nt.highestTierName().isEmpty();
            if (nt.highestTierAllowed() != null && nt.highestTierAllowed() < 1) {
                c.invalid(field + ".highestTierAllowed", nt.highestTierAllowed(),
                        "must be greater than or equal to 1");
            }
            if (nt.highestTierAllowed() != null && named) {
                c.invalid(field, "{`highestTierAllowed`, `highestTierName`}",
                        "must not specify both `highestTierAllowed` and `highestTierName`");
            } else if (named && !tierNames.containsKey(nt.highestTierName())) {
                c.invalid(field + ".highestTierName", nt.highestTierName(), "no HyperNode in snapshot.hyperNodes "
                        + "has this spec.tierName");
            }
            Map<String, String> annotations = g.metadata() == null ? null : g.metadata().annotations();
            if (annotations != null) {
                for (String a : TOPOLOGY_ANNOTATIONS) {
                    if (annotations.containsKey(a)) {
                        c.forbidden(at + ".metadata.annotations[" + a + "]", "spec.networkTopology already sets "
                                + "this Volcano PodGroup's topology; use one of the two");
                    }
                }
            }
        }
    }
}
