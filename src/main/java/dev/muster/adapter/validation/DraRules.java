package dev.muster.adapter.validation;

import dev.muster.adapter.cel.CelCompileException;
import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeDra;
import dev.muster.adapter.kube.Qty;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.model.Quantity;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.muster.adapter.validation.FieldRules.enumOptional;
import static dev.muster.adapter.validation.FieldRules.longName;
import static dev.muster.adapter.validation.FieldRules.shortName;

/**
 * The DRA objects ({@code deviceClasses}, {@code resourceSlices}, {@code resourceClaims},
 * {@code resourceClaimTemplates}): the rules the API server applies to {@code resource.k8s.io/v1} objects that a
 * decision depends on, and device selectors that compile. Selectors are compiled once per expression text, by the
 * same compiler the request is then mapped with ({@link CelSelectors#shared()}).
 */
final class DraRules implements ObjectFamily {

    static final int MAX_REQUESTS = 32;
    static final int MAX_SELECTORS = 32;
    static final int MAX_CONSTRAINTS = 32;
    static final int MAX_CONFIGS = 32;
    static final int MAX_SUBREQUESTS = 8;
    static final int MAX_TOLERATIONS = 16;
    static final int MAX_DEVICES = 128;
    static final int MAX_RESERVED_FOR = 256;
    static final int MAX_RESULTS = 32;
    static final List<String> MODES = List.of("ExactCount", "All");
    static final List<String> TOLERATION_OPERATORS = List.of("Equal", "Exists");
    static final List<String> DEVICE_TAINT_EFFECTS = List.of("None", "NoSchedule", "NoExecute");
    static final List<String> CONFIG_SOURCES = List.of("FromClass", "FromClaim");

    private static final ObjectLists.Kind<KubeDra.DeviceClass> CLASSES = new ObjectLists.Kind<>(".deviceClasses",
            "must be a DeviceClass object", false, KubeDra.DeviceClass::metadata);
    private static final ObjectLists.Kind<KubeDra.ResourceSlice> SLICES = new ObjectLists.Kind<>(".resourceSlices",
            "must be a ResourceSlice object", false, KubeDra.ResourceSlice::metadata);
    private static final ObjectLists.Kind<KubeDra.ResourceClaim> CLAIMS = new ObjectLists.Kind<>(".resourceClaims",
            "must be a ResourceClaim object", true, k -> k.metadata() == null ? null : k.metadata().common());
    private static final ObjectLists.Kind<KubeDra.ResourceClaimTemplate> TEMPLATES = new ObjectLists.Kind<>(
            ".resourceClaimTemplates", "must be a ResourceClaimTemplate object", true,
            KubeDra.ResourceClaimTemplate::metadata);

    @Override
    public void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c) {
        int max = limits.maxObjects();
        ObjectLists.check(CLASSES, s.deviceClasses(), max, p, DraRules::deviceClass, c);
        ObjectLists.check(SLICES, s.resourceSlices(), max, p, DraRules::slice, c);
        ObjectLists.check(CLAIMS, s.resourceClaims(), max, p, DraRules::claim, c);
        ObjectLists.check(TEMPLATES, s.resourceClaimTemplates(), max, p, DraRules::template, c);
    }

    // ---------------------------------------------------------------- DeviceClass

    private static void deviceClass(KubeDra.DeviceClass k, FieldPath p, Causes c) {
        if (k.spec() == null) {
            return;
        }
        selectors(k.spec().selectors(), p, ".spec.selectors", c);
        configs(k.spec().config(), null, p, ".spec.config", c);
        String ext = k.spec().extendedResourceName();
        if (ext != null && !isExtendedResourceName(ext)) {
            c.invalid(p.at(".spec.extendedResourceName"), ext, "must be an extended resource name: a qualified name "
                    + "with a domain prefix outside kubernetes.io (e.g. example.com/gpu), not starting with 'requests.'");
        }
    }

    /** The API server's rule for {@code extendedResourceName}: a prefixed qualified name, not Kubernetes' own. */
    static boolean isExtendedResourceName(String name) {
        int slash = name.indexOf('/');
        if (slash <= 0 || name.startsWith("requests.") || name.substring(0, slash).endsWith("kubernetes.io")) {
            return false;
        }
        return Names.isQualifiedName("requests." + name);
    }

    private static void selectors(List<KubeDra.Selector> selectors, FieldPath p, String field, Causes c) {
        if (selectors == null) {
            return;
        }
        if (selectors.size() > MAX_SELECTORS) {
            c.tooMany(p.at(field), selectors.size(), MAX_SELECTORS);
            return;
        }
        p.field(field);
        for (int i = 0; i < selectors.size(); i++) {
            p.index(i);
            KubeDra.Selector s = selectors.get(i);
            if (s == null || s.cel() == null) {
                c.required(p.at(".cel"), "a selector needs a cel expression");
            } else if (s.cel().expression() == null || s.cel().expression().isBlank()) {
                c.required(p.at(".cel.expression"), "");
            } else {
                try {
                    CelSelectors.shared().compile(s.cel().expression());
                } catch (CelCompileException e) {
                    c.invalid(p.at(".cel.expression"), abbreviate(s.cel().expression()), e.getMessage());
                }
            }
            p.pop();
        }
        p.pop();
    }

    private static String abbreviate(String s) {
        return s.length() <= 256 ? s : s.substring(0, 256) + "...";
    }

    private static void configs(List<KubeDra.Config> configs, Set<String> requestNames, FieldPath p, String field,
                                Causes c) {
        if (configs == null) {
            return;
        }
        if (configs.size() > MAX_CONFIGS) {
            c.tooMany(p.at(field), configs.size(), MAX_CONFIGS);
            return;
        }
        p.field(field);
        for (int i = 0; i < configs.size(); i++) {
            p.index(i);
            KubeDra.Config k = configs.get(i);
            if (k == null || k.opaque() == null) {
                c.required(p.at(".opaque"), "a configuration needs opaque driver parameters");
            } else {
                longName(k.opaque().driver(), p, ".opaque.driver", true, c);
                if (requestNames != null) {
                    requestRefs(k.requests(), requestNames, p, c);
                }
            }
            p.pop();
        }
        p.pop();
    }

    // ---------------------------------------------------------------- ResourceSlice

    private static void slice(KubeDra.ResourceSlice k, FieldPath p, Causes c) {
        KubeDra.ResourceSliceSpec spec = k.spec();
        if (spec == null) {
            c.required(p.at(".spec"), "a ResourceSlice needs a spec");
            return;
        }
        longName(spec.driver(), p, ".spec.driver", true, c);
        KubeDra.Pool pool = spec.pool();
        if (pool == null) {
            c.required(p.at(".spec.pool"), "");
        } else {
            if (pool.name() == null || pool.name().isEmpty()) {
                c.required(p.at(".spec.pool.name"), "");
            }
            if (pool.generation() != null && pool.generation() < 0) {
                c.invalid(p.at(".spec.pool.generation"), pool.generation(), "must be greater than or equal to 0");
            }
            if (pool.resourceSliceCount() == null) {
                c.required(p.at(".spec.pool.resourceSliceCount"), "");
            } else if (pool.resourceSliceCount() < 1) {
                c.invalid(p.at(".spec.pool.resourceSliceCount"), pool.resourceSliceCount(), "must be greater than 0");
            }
        }
        boolean hasCounters = spec.sharedCounters() != null && !spec.sharedCounters().isEmpty();
        int selections = count(spec.nodeName() != null && !spec.nodeName().isEmpty(), spec.nodeSelector() != null,
                Boolean.TRUE.equals(spec.allNodes()), Boolean.TRUE.equals(spec.perDeviceNodeSelection()));
        if (selections > 1) {
            c.invalid(p.at(".spec"), "{nodeName, nodeSelector, allNodes, perDeviceNodeSelection}",
                    "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required");
        } else if (selections == 0 && !hasCounters) {
            c.required(p.at(".spec"),
                    "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required");
        }
        nodeSelector(spec.nodeSelector(), p, ".spec.nodeSelector", c);
        PodRules.nodeSelectorTerms(spec.nodeSelector(), p, ".spec.nodeSelector", c);
        counterSets(spec.sharedCounters(), p, c);
        devices(spec.devices(), Boolean.TRUE.equals(spec.perDeviceNodeSelection()), p, c);
    }

    private static int count(boolean... set) {
        int n = 0;
        for (boolean b : set) {
            n += b ? 1 : 0;
        }
        return n;
    }

    private static void nodeSelector(dev.muster.adapter.kube.Kube.NodeSelector s, FieldPath p, String field,
                                     Causes c) {
        if (s != null && (s.nodeSelectorTerms() == null || s.nodeSelectorTerms().size() != 1)) {
            c.invalid(p.at(field + ".nodeSelectorTerms"), s.nodeSelectorTerms() == null ? 0
                    : s.nodeSelectorTerms().size(), "must have exactly one node selector term");
        }
    }

    private static void counterSets(List<KubeDra.CounterSet> sets, FieldPath p, Causes c) {
        if (sets == null) {
            return;
        }
        p.field(".spec.sharedCounters");
        for (int i = 0; i < sets.size(); i++) {
            p.index(i);
            KubeDra.CounterSet s = sets.get(i);
            if (s == null || s.name() == null || s.name().isEmpty()) {
                c.required(p.at(".name"), "");
            } else {
                counters(s.counters(), p, ".counters", -1, "", c);
            }
            p.pop();
        }
        p.pop();
    }

    /** The counters at {@code field} (a prefix and an index when {@code index >= 0}), named only on an error. */
    private static void counters(Map<String, KubeDra.Counter> counters, FieldPath p, String field, int index,
                                 String suffix, Causes c) {
        if (counters == null) {
            return;
        }
        for (Map.Entry<String, KubeDra.Counter> e : counters.entrySet()) {
            Qty q = e.getValue() == null ? null : e.getValue().value();
            if (!validQuantity(q)) {
                String at = (index >= 0 ? field + "[" + index + "]" : field) + suffix;
                quantity(q, p, at + "[" + e.getKey() + "].value", c);
            }
        }
    }

    private static boolean validQuantity(Qty q) {
        return q != null && Quantity.isValid(q.text()) && !Quantity.isNegative(q.text());
    }

    private static void quantity(Qty q, FieldPath p, String field, Causes c) {
        if (q == null) {
            c.required(p.at(field), "a quantity is required");
        } else if (!Quantity.isValid(q.text())) {
            c.invalid(p.at(field), q.text(), Quantity.FORMAT_MESSAGE);
        } else if (Quantity.isNegative(q.text())) {
            c.invalid(p.at(field), q.text(), "must be greater than or equal to 0");
        }
    }

    private static void devices(List<KubeDra.Device> devices, boolean perDevice, FieldPath p, Causes c) {
        if (devices == null) {
            return;
        }
        if (devices.size() > MAX_DEVICES) {
            c.tooMany(p.at(".spec.devices"), devices.size(), MAX_DEVICES);
            return;
        }
        Set<String> names = new HashSet<>();
        p.field(".spec.devices");
        for (int i = 0; i < devices.size(); i++) {
            p.index(i);
            KubeDra.Device d = devices.get(i);
            if (d == null) {
                c.required(p.at(""), "must be a device");
                p.pop();
                continue;
            }
            if (shortName(d.name(), p, ".name", true, c) && !names.add(d.name())) {
                c.duplicate(p.at(".name"), d.name());
            }
            if (d.attributes() != null) {
                for (Map.Entry<String, KubeDra.Attribute> e : d.attributes().entrySet()) {
                    KubeDra.Attribute a = e.getValue();
                    if (a == null || (a.intValue() != null ? 1 : 0) + (a.boolValue() != null ? 1 : 0)
                            + (a.stringValue() != null ? 1 : 0) + (a.versionValue() != null ? 1 : 0) != 1) {
                        c.invalid(p.at(".attributes[" + e.getKey() + "]"), "attribute",
                                "exactly one of `int`, `bool`, `string`, `version` is required");
                    } else if (a.versionValue() != null && !CelSelectors.isSemanticVersion(a.versionValue())) {
                        c.invalid(p.at(".attributes[" + e.getKey() + "].version"), a.versionValue(),
                                "must be a string compatible with semver.org spec 2.0.0");
                    }
                }
            }
            if (d.capacity() != null) {
                for (Map.Entry<String, KubeDra.Capacity> e : d.capacity().entrySet()) {
                    Qty q = e.getValue() == null ? null : e.getValue().value();
                    if (!validQuantity(q)) {
                        quantity(q, p, ".capacity[" + e.getKey() + "].value", c);
                    }
                }
            }
            if (d.consumesCounters() != null) {
                for (int j = 0; j < d.consumesCounters().size(); j++) {
                    KubeDra.CounterConsumption cc = d.consumesCounters().get(j);
                    if (cc == null || cc.counterSet() == null || cc.counterSet().isEmpty()) {
                        c.required(p.at(".consumesCounters[" + j + "].counterSet"), "");
                    } else {
                        counters(cc.counters(), p, ".consumesCounters", j, ".counters", c);
                    }
                }
            }
            if (d.taints() != null) {
                for (int j = 0; j < d.taints().size(); j++) {
                    KubeDra.Taint t = d.taints().get(j);
                    if (t == null || t.key() == null || t.key().isEmpty()) {
                        c.required(p.at(".taints[" + j + "].key"), "");
                    } else {
                        enumOptional(t.effect(), p, ".taints[" + j + "].effect", DEVICE_TAINT_EFFECTS, c);
                    }
                }
            }
            int own = (d.nodeName() != null && !d.nodeName().isEmpty() ? 1 : 0) + (d.nodeSelector() != null ? 1 : 0)
                    + (Boolean.TRUE.equals(d.allNodes()) ? 1 : 0); // per device: no array for the count
            if (perDevice && own != 1) {
                c.invalid(p.at(""), d.name(), "exactly one of `nodeName`, `nodeSelector`, `allNodes` is required "
                        + "when the slice sets perDeviceNodeSelection");
            } else if (!perDevice && own > 0) {
                c.forbidden(p.at(""), "per-device node selection needs perDeviceNodeSelection on the slice");
            }
            nodeSelector(d.nodeSelector(), p, ".nodeSelector", c);
            p.pop();
        }
        p.pop();
    }

    // ---------------------------------------------------------------- ResourceClaim, ResourceClaimTemplate

    private static void template(KubeDra.ResourceClaimTemplate k, FieldPath p, Causes c) {
        if (k.spec() == null || k.spec().spec() == null) {
            c.required(p.at(".spec.spec"), "a ResourceClaimTemplate needs the claim spec");
            return;
        }
        DraClaimRules.claimSpec(k.spec().spec(), p, ".spec.spec", c);
    }

    private static void claim(KubeDra.ResourceClaim k, FieldPath p, Causes c) {
        if (k.metadata() != null) {
            ownerReferences(k.metadata().ownerReferences(), p, c);
        }
        if (k.spec() == null) {
            c.required(p.at(".spec"), "a ResourceClaim needs a spec");
            return;
        }
        DraClaimRules.claimSpec(k.spec(), p, ".spec", c);
        if (k.status() != null) {
            DraClaimRules.status(k.status(), p, c);
        }
    }

    /**
     * The API server's rules for {@code metadata.ownerReferences} (read on claims: the claim made for a pod's extended
     * resources names the pod as its controller): apiVersion with a version, kind, name and uid present, no Event
     * as owner, at most one controller.
     */
    static void ownerReferences(List<Kube.OwnerReference> refs, FieldPath p, Causes c) {
        if (refs == null) {
            return;
        }
        String firstController = null;
        for (int i = 0; i < refs.size(); i++) {
            Kube.OwnerReference o = refs.get(i);
            String at = ".metadata.ownerReferences[" + i + "]";
            if (o == null) {
                c.required(p.at(at), "an owner reference needs apiVersion, kind, name and uid");
                continue;
            }
            if (version(o.apiVersion()).isEmpty()) {
                c.invalid(p.at(at + ".apiVersion"), nz(o.apiVersion()), "version must not be empty");
            }
            if (o.kind() == null || o.kind().isEmpty()) {
                c.invalid(p.at(at + ".kind"), nz(o.kind()), "kind must not be empty");
            }
            if (o.name() == null || o.name().isEmpty()) {
                c.invalid(p.at(at + ".name"), nz(o.name()), "name must not be empty");
            }
            if (o.uid() == null || o.uid().isEmpty()) {
                c.invalid(p.at(at + ".uid"), nz(o.uid()), "uid must not be empty");
            }
            if ("v1".equals(o.apiVersion()) && "Event".equals(o.kind())) {
                c.invalid(p.at(at), "Event/" + nz(o.name()), "/v1, Kind=Event is disallowed from being an owner");
            }
            if (o.isController()) {
                String current = nz(o.kind()) + "/" + nz(o.name());
                if (firstController != null) {
                    c.invalid(p.at(".metadata.ownerReferences"), current, "Only one reference can have Controller "
                            + "set to true. Found \"true\" in references for " + firstController + " and " + current);
                } else {
                    firstController = current;
                }
            }
        }
    }

    /** The version of an apiVersion ({@code v1}, {@code group/v1}); empty when it has none or cannot be parsed. */
    private static String version(String apiVersion) {
        if (apiVersion == null || apiVersion.isEmpty()) {
            return "";
        }
        int slash = apiVersion.indexOf('/');
        if (slash < 0) {
            return apiVersion;
        }
        return apiVersion.indexOf('/', slash + 1) >= 0 ? "" : apiVersion.substring(slash + 1);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /** Each name must be one of the request names ({@code req} or {@code req/sub}). */
    static void requestRefs(List<String> refs, Set<String> names, FieldPath p, Causes c) {
        if (refs == null) {
            return;
        }
        for (int j = 0; j < refs.size(); j++) {
            if (!names.contains(refs.get(j))) {
                c.invalid(p.at(".requests[" + j + "]"), refs.get(j), "must be the name of a request in the claim "
                        + "or the name of a request and a subrequest separated by '/'");
            }
        }
    }

    static void selectorsOf(List<KubeDra.Selector> s, FieldPath p, Causes c) {
        selectors(s, p, ".selectors", c);
    }

    static void configsOf(List<KubeDra.Config> configs, Set<String> names, FieldPath p, String field, Causes c) {
        configs(configs, names, p, field, c);
    }

    static void quantityOf(Qty q, FieldPath p, String field, Causes c) {
        quantity(q, p, field, c);
    }
}
