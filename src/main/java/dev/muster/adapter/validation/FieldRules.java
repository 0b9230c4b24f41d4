package dev.muster.adapter.validation;

import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.Qty;
import dev.muster.core.model.Quantity;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Field rules more than one object family uses: name formats, enums, quantities, label selectors and resource-claim
 * references. Each reports at {@code p + field} (or at {@code p} where it says so).
 */
final class FieldRules {
    static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    static final List<String> PREEMPTION_POLICIES = List.of("PreemptLowerPriority", "Never");
    private static final List<String> LABEL_SELECTOR_OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

    private FieldRules() {
    }

    /** Every quantity parses and none is negative. {@code p + field} is the map's path. */
    static void quantities(Map<String, Qty> q, FieldPath p, String field, Causes c) {
        if (q == null || q.isEmpty()) {
            return;
        }
        for (Map.Entry<String, Qty> e : q.entrySet()) {
            Qty v = e.getValue();
            if (v == null) {
                c.required(p.at(field) + "[" + e.getKey() + "]", "a quantity is required");
                continue;
            }
            String text = v.text();
            if (!Quantity.isValid(text)) {
                c.invalid(p.at(field) + "[" + e.getKey() + "]", text, Quantity.FORMAT_MESSAGE);
            } else if (Quantity.isNegative(text)) {
                c.invalid(p.at(field) + "[" + e.getKey() + "]", text, "must be greater than or equal to 0");
            }
        }
    }

    static void requirements(List<Kube.Requirement> reqs, FieldPath p, String field, List<String> operators,
                                     Causes c) {
        if (reqs == null) {
            return;
        }
        for (int i = 0; i < reqs.size(); i++) {
            Kube.Requirement r = reqs.get(i);
            if (r == null) {
                continue;
            }
            if (r.key() == null || r.key().isEmpty()) {
                c.required(p.at(field, i) + ".key", "a selector requirement needs a key");
            }
            String op = r.operator();
            if (op == null || op.isEmpty()) {
                c.required(p.at(field, i) + ".operator", "");
            } else if (!operators.contains(op)) {
                c.notSupported(p.at(field, i) + ".operator", op, operators);
            }
        }
    }

    static void labelSelector(Kube.LabelSelector s, FieldPath p, String field, Causes c) {
        if (s != null && s.matchExpressions() != null) {
            p.field(field);
            requirements(s.matchExpressions(), p, ".matchExpressions", LABEL_SELECTOR_OPERATORS, c);
            p.pop();
        }
    }

    /**
     * Pod or PodGroup {@code resourceClaims} (non-empty, at {@code p}): named (DNS label, unique), exactly one of
     * the two references.
     */
    static void claimRefs(List<Kube.ClaimRef> claims, FieldPath p, int max, Causes c) {
        if (claims.size() > max) {
            c.tooMany(p.at(""), claims.size(), max);
        }
        Map<String, Integer> names = new HashMap<>();
        for (int i = 0; i < claims.size(); i++) {
            Kube.ClaimRef r = claims.get(i);
            p.index(i);
            if (r == null) {
                c.required(p.at(""), "must be a resource claim reference");
                p.pop();
                continue;
            }
            if (shortName(r.name(), p, ".name", true, c) && names.putIfAbsent(r.name(), i) != null) {
                c.duplicate(p.at(""), r.name());
            }
            boolean hasClaim = r.resourceClaimName() != null && !r.resourceClaimName().isEmpty();
            boolean hasTemplate = r.resourceClaimTemplateName() != null && !r.resourceClaimTemplateName().isEmpty();
            if (!hasClaim && !hasTemplate) {
                c.invalid(p.at(""), "", "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
            } else if (hasClaim && hasTemplate) {
                c.invalid(p.at(""), "{`resourceClaimName`, `resourceClaimTemplateName`}",
                        "must specify exactly one of: `resourceClaimName`, `resourceClaimTemplateName`");
            }
            if (hasClaim) {
                longName(r.resourceClaimName(), p, ".resourceClaimName", false, c);
            }
            if (hasTemplate) {
                longName(r.resourceClaimTemplateName(), p, ".resourceClaimTemplateName", false, c);
            }
            p.pop();
        }
    }

    /**
     * A pod's or PodGroup's {@code status.resourceClaimStatuses} (at {@code p}), as the API server checks a pod's:
     * each names an entry of the object's {@code spec.resourceClaims}, no entry twice, and the generated claim's name,
     * when there is one, is a DNS subdomain.
     */
    static void claimStatuses(List<Kube.ClaimStatus> statuses, List<Kube.ClaimRef> claims, FieldPath p, Causes c) {
        Set<String> entries = new HashSet<>();
        if (claims != null) {
            for (Kube.ClaimRef r : claims) {
                if (r != null && r.name() != null) {
                    entries.add(r.name());
                }
            }
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < statuses.size(); i++) {
            Kube.ClaimStatus s = statuses.get(i);
            p.index(i);
            if (s == null) {
                c.required(p.at(""), "must be a resource claim status");
            } else {
                if (s.name() == null || s.name().isEmpty()) {
                    c.required(p.at(".name"), "the name of an entry in `spec.resourceClaims`");
                } else if (!entries.contains(s.name())) {
                    c.invalid(p.at(".name"), s.name(), "must match the name of an entry in `spec.resourceClaims`");
                } else if (!seen.add(s.name())) {
                    c.duplicate(p.at(".name"), s.name());
                }
                longName(s.resourceClaimName(), p, ".resourceClaimName", false, c);
            }
            p.pop();
        }
    }

    /** DNS label ({@code k8s-short-name}); returns whether it is present and valid. */
    static boolean shortName(String v, FieldPath p, String field, boolean required, Causes c) {
        if (v == null || v.isEmpty()) {
            if (required) {
                c.required(p.at(field), "");
            }
            return false;
        }
        if (!Names.isDnsLabel(v)) {
            c.invalid(p.at(field), v, Names.DNS_LABEL_MESSAGE);
            return false;
        }
        return true;
    }

    /** DNS subdomain ({@code k8s-long-name}). */
    static void longName(String v, FieldPath p, String field, boolean required, Causes c) {
        if (v == null || v.isEmpty()) {
            if (required) {
                c.required(p.at(field), "");
            }
        } else if (!Names.isDnsSubdomain(v)) {
            c.invalid(p.at(field), v, Names.DNS_SUBDOMAIN_MESSAGE);
        }
    }

    static void labelKey(String v, FieldPath p, String field, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(p.at(field), "");
        } else if (!Names.isQualifiedName(v)) {
            c.invalid(p.at(field), v, Names.QUALIFIED_NAME_MESSAGE);
        }
    }

    static void pathSegment(String v, FieldPath p, String field, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(p.at(field), "");
        } else if (!Names.isPathSegmentName(v)) {
            c.invalid(p.at(field), v, Names.PATH_SEGMENT_MESSAGE);
        }
    }

    static void enumRequired(String v, FieldPath p, String field, List<String> supported, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(p.at(field), "");
        } else if (!supported.contains(v)) {
            c.notSupported(p.at(field), v, supported);
        }
    }

    static void enumOptional(String v, FieldPath p, String field, List<String> supported, Causes c) {
        if (v != null && !v.isEmpty() && !supported.contains(v)) {
            c.notSupported(p.at(field), v, supported);
        }
    }
}
