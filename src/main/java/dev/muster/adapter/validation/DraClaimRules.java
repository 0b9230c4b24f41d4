package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeDra;
import dev.muster.adapter.kube.Qty;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.muster.adapter.validation.FieldRules.enumOptional;
import static dev.muster.adapter.validation.FieldRules.longName;
import static dev.muster.adapter.validation.FieldRules.shortName;

/** A ResourceClaim's spec (also a template's) and status, as the API server checks them. */
final class DraClaimRules {
    private DraClaimRules() {
    }

    /** {@code spec.devices}: requests, constraints and config. {@code field} is the spec's path. */
    static void claimSpec(KubeDra.ClaimSpec spec, FieldPath p, String field, Causes c) {
        KubeDra.DeviceClaim d = spec.devices();
        if (d == null) {
            return;
        }
        p.field(field);
        Set<String> names = new HashSet<>();
        requests(d.requests(), names, p, c);
        constraints(d.constraints(), names, p, c);
        DraRules.configsOf(d.config(), names, p, ".devices.config", c);
        p.pop();
    }

    private static void requests(List<KubeDra.Request> requests, Set<String> names, FieldPath p, Causes c) {
        if (requests == null) {
            return;
        }
        if (requests.size() > DraRules.MAX_REQUESTS) {
            c.tooMany(p.at(".devices.requests"), requests.size(), DraRules.MAX_REQUESTS);
            return;
        }
        p.field(".devices.requests");
        for (int i = 0; i < requests.size(); i++) {
            p.index(i);
            KubeDra.Request r = requests.get(i);
            if (r == null) {
                c.required(p.at(""), "must be a device request");
                p.pop();
                continue;
            }
            if (shortName(r.name(), p, ".name", true, c) && !names.add(r.name())) {
                c.duplicate(p.at(".name"), r.name());
            }
            boolean exact = r.exactly() != null;
            boolean first = r.firstAvailable() != null && !r.firstAvailable().isEmpty();
            if (exact == first) {
                if (exact) {
                    c.forbidden(p.at(".firstAvailable"), "exactly one of `exactly` or `firstAvailable` is required");
                } else {
                    c.required(p.at(""), "exactly one of `exactly` or `firstAvailable` is required");
                }
            } else if (exact) {
                KubeDra.ExactRequest e = r.exactly();
                p.field(".exactly");
                device(e.deviceClassName(), e.selectors(), e.allocationMode(), e.count(), e.tolerations(),
                        e.capacity(), p, c);
                p.pop();
            } else {
                subRequests(r.name(), r.firstAvailable(), names, p, c);
            }
            p.pop();
        }
        p.pop();
    }

    private static void subRequests(String request, List<KubeDra.SubRequest> subs, Set<String> names, FieldPath p,
                                    Causes c) {
        if (subs.size() > DraRules.MAX_SUBREQUESTS) {
            c.tooMany(p.at(".firstAvailable"), subs.size(), DraRules.MAX_SUBREQUESTS);
            return;
        }
        Set<String> own = new HashSet<>();
        p.field(".firstAvailable");
        for (int j = 0; j < subs.size(); j++) {
            p.index(j);
            KubeDra.SubRequest s = subs.get(j);
            if (s == null) {
                c.required(p.at(""), "must be a device subrequest");
            } else {
                if (shortName(s.name(), p, ".name", true, c)) {
                    if (!own.add(s.name())) {
                        c.duplicate(p.at(".name"), s.name());
                    } else if (request != null) {
                        names.add(request + "/" + s.name());
                    }
                }
                device(s.deviceClassName(), s.selectors(), s.allocationMode(), s.count(), s.tolerations(),
                        s.capacity(), p, c);
            }
            p.pop();
        }
        p.pop();
    }

    /** The fields an exact request and a subrequest share. */
    private static void device(String className, List<KubeDra.Selector> selectors, String mode, Long count,
                               List<KubeDra.Toleration> tolerations, KubeDra.CapacityRequirements capacity,
                               FieldPath p, Causes c) {
        longName(className, p, ".deviceClassName", true, c);
        DraRules.selectorsOf(selectors, p, c);
        enumOptional(mode, p, ".allocationMode", DraRules.MODES, c);
        if ("All".equals(mode)) {
            if (count != null && count != 0) {
                c.invalid(p.at(".count"), count, "must not be specified when allocationMode is 'All'");
            }
        } else if (count != null && count <= 0) {
            c.invalid(p.at(".count"), count, "must be greater than zero");
        }
        if (tolerations != null) {
            if (tolerations.size() > DraRules.MAX_TOLERATIONS) {
                c.tooMany(p.at(".tolerations"), tolerations.size(), DraRules.MAX_TOLERATIONS);
            } else {
                for (int t = 0; t < tolerations.size(); t++) {
                    KubeDra.Toleration tol = tolerations.get(t);
                    if (tol == null) {
                        c.required(p.at(".tolerations[" + t + "]"), "must be a toleration");
                        continue;
                    }
                    enumOptional(tol.operator(), p, ".tolerations[" + t + "].operator", DraRules.TOLERATION_OPERATORS,
                            c);
                    enumOptional(tol.effect(), p, ".tolerations[" + t + "].effect", DraRules.DEVICE_TAINT_EFFECTS, c);
                    if ("Exists".equals(tol.operator()) && tol.value() != null && !tol.value().isEmpty()) {
                        c.invalid(p.at(".tolerations[" + t + "].value"), tol.value(),
                                "value must be empty when `operator` is 'Exists'");
                    }
                }
            }
        }
        if (capacity != null && capacity.requests() != null) {
            for (Map.Entry<String, Qty> e : capacity.requests().entrySet()) {
                DraRules.quantityOf(e.getValue(), p, ".capacity.requests[" + e.getKey() + "]", c);
            }
        }
    }

    private static void constraints(List<KubeDra.Constraint> constraints, Set<String> names, FieldPath p, Causes c) {
        if (constraints == null) {
            return;
        }
        if (constraints.size() > DraRules.MAX_CONSTRAINTS) {
            c.tooMany(p.at(".devices.constraints"), constraints.size(), DraRules.MAX_CONSTRAINTS);
            return;
        }
        p.field(".devices.constraints");
        for (int i = 0; i < constraints.size(); i++) {
            p.index(i);
            KubeDra.Constraint k = constraints.get(i);
            boolean match = k != null && k.matchAttribute() != null && !k.matchAttribute().isEmpty();
            boolean distinct = k != null && k.distinctAttribute() != null && !k.distinctAttribute().isEmpty();
            if (match == distinct) {
                c.required(p.at(""), "exactly one of `matchAttribute` or `distinctAttribute` is required");
            } else {
                String attr = match ? k.matchAttribute() : k.distinctAttribute();
                if (attr.indexOf('/') <= 0) {
                    c.invalid(p.at(match ? ".matchAttribute" : ".distinctAttribute"), attr,
                            "a fully qualified attribute name (domain/identifier) is required");
                }
                DraRules.requestRefs(k.requests(), names, p, c);
            }
            p.pop();
        }
        p.pop();
    }

    /** {@code status}: the allocation's results and the reservedFor list. */
    static void status(KubeDra.ClaimStatus s, FieldPath p, Causes c) {
        KubeDra.Allocation a = s.allocation();
        if (a != null) {
            PodRules.nodeSelectorTerms(a.nodeSelector(), p, ".status.allocation.nodeSelector", c);
        }
        if (a != null && a.devices() != null && a.devices().results() != null) {
            List<KubeDra.Result> results = a.devices().results();
            if (results.size() > DraRules.MAX_RESULTS) {
                c.tooMany(p.at(".status.allocation.devices.results"), results.size(), DraRules.MAX_RESULTS);
            } else {
                for (int i = 0; i < results.size(); i++) {
                    KubeDra.Result r = results.get(i);
                    String at = ".status.allocation.devices.results[" + i + "]";
                    if (r == null) {
                        c.required(p.at(at), "must be a device allocation result");
                        continue;
                    }
                    required(r.request(), p, at + ".request", c);
                    required(r.driver(), p, at + ".driver", c);
                    required(r.pool(), p, at + ".pool", c);
                    required(r.device(), p, at + ".device", c);
                }
            }
        }
        if (a != null && a.devices() != null && a.devices().config() != null) {
            for (int i = 0; i < a.devices().config().size(); i++) {
                KubeDra.AllocationConfig k = a.devices().config().get(i);
                String at = ".status.allocation.devices.config[" + i + "]";
                if (k == null || k.opaque() == null) {
                    c.required(p.at(at + ".opaque"), "");
                } else {
                    FieldRules.enumRequired(k.source(), p, at + ".source", DraRules.CONFIG_SOURCES, c);
                    longName(k.opaque().driver(), p, at + ".opaque.driver", true, c);
                }
            }
        }
        List<KubeDra.Consumer> reserved = s.reservedFor();
        if (reserved != null) {
            if (reserved.size() > DraRules.MAX_RESERVED_FOR) {
                c.tooMany(p.at(".status.reservedFor"), reserved.size(), DraRules.MAX_RESERVED_FOR);
            } else {
                for (int i = 0; i < reserved.size(); i++) {
                    KubeDra.Consumer r = reserved.get(i);
                    String at = ".status.reservedFor[" + i + "]";
                    if (r == null) {
                        c.required(p.at(at), "must be a consumer reference");
                        continue;
                    }
                    required(r.resource(), p, at + ".resource", c);
                    required(r.name(), p, at + ".name", c);
                }
            }
        }
    }

    private static void required(String v, FieldPath p, String field, Causes c) {
        if (v == null || v.isEmpty()) {
            c.required(p.at(field), "");
        }
    }
}
