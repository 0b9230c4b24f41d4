package dev.muster.adapter.kube;

import dev.muster.core.dra.AllocationResult;
import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.dra.ClaimConsumer;
import dev.muster.core.dra.Device;
import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.DeviceClass;
import dev.muster.core.dra.DeviceSelector;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.dra.FrozenMap;
import dev.muster.core.dra.OpaqueConfig;
import dev.muster.core.dra.ResourceClaim;
import dev.muster.core.dra.ResourceClaimSpec;
import dev.muster.core.dra.ResourceClaimTemplate;
import dev.muster.core.dra.ResourceSlice;
import dev.muster.core.model.NodeSelectorTerm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code resource.k8s.io} objects → the core's DRA model, after validation (which guarantees every rule the
 * model's records check). Applies the API server's defaults the allocator relies on: {@code allocationMode}
 * ExactCount, {@code count} 1. Selectors are compiled by the given compiler, so the same expression is compiled once
 * however many objects carry it.
 */
public final class DraMapper {
    private final Function<String, DeviceSelector> selectors;
    /** Distinct attribute and capacity maps kept per mapper at most (a bound on the tables, not on correctness). */
    private static final int MAX_SHARED = 4096;
    /** Devices that look alike share their attribute and capacity maps, and equal attribute values one object. */
    private final SharedAttributes attributes = new SharedAttributes(MAX_SHARED);
    private final SharedValues<Map<String, KubeDra.Capacity>, FrozenMap<String, Device.Capacity>> sharedCapacity =
            new SharedValues<>(MAX_SHARED);
    /** The counters a device consumes from one set: a partition profile's, one decoded map on every GPU. */
    private final SharedValues<Map<String, KubeDra.Counter>, FrozenMap<String, String>> sharedCounters =
            new SharedValues<>(MAX_SHARED);
    /**
     * A device's one counter consumption, by its shared counters (identity: at most {@link #MAX_SHARED} of them, as
     * that table) and its set's name: a partition profile on one GPU, the same in every slice.
     */
    private final Map<FrozenMap<String, String>, Map<String, List<Device.CounterConsumption>>> sharedConsumption =
            new IdentityHashMap<>();
    /**
     * Claims made from one template have equal specs, and live in a few namespaces: one compiled spec and one
     * namespace string for all of them (what the claim catalog would make canonical anyway), not one per claim.
     */
    private final SharedValues<KubeDra.ClaimSpec, ResourceClaimSpec> sharedSpecs = new SharedValues<>(MAX_SHARED);
    private final Map<String, String> namespaces = new java.util.HashMap<>();

    /** @param selectors compiles a CEL device selector (validation has already proved that it compiles) */
    public DraMapper(Function<String, DeviceSelector> selectors) {
        this.selectors = selectors;
    }

    /** The objects in the core model, every device attribute kept (objects that may meet claims mapped elsewhere). */
    public DraObjects map(List<KubeDra.DeviceClass> classes, List<KubeDra.ResourceSlice> slices,
                          List<KubeDra.ResourceClaim> claims, List<KubeDra.ResourceClaimTemplate> templates) {
        return map(classes, slices, claims, templates, false);
    }

    /**
     * The DRA objects of one request, which holds every class, claim and template its decision reads: a device keeps
     * only the attributes that their selectors and constraints read (all of them when a selector's reads cannot be
     * told). Nothing else reads an attribute, so the decision is the same, and a GPU's uuid or serial number no longer
     * makes its attributes a map of their own: alike devices share one.
     */
    public DraObjects mapRequest(List<KubeDra.DeviceClass> classes, List<KubeDra.ResourceSlice> slices,
                                 List<KubeDra.ResourceClaim> claims, List<KubeDra.ResourceClaimTemplate> templates) {
        return map(classes, slices, claims, templates, true);
    }

    private DraObjects map(List<KubeDra.DeviceClass> classes, List<KubeDra.ResourceSlice> slices,
                           List<KubeDra.ResourceClaim> claims, List<KubeDra.ResourceClaimTemplate> templates,
                           boolean onlyRead) {
        if (empty(classes) && empty(slices) && empty(claims) && empty(templates)) {
            return DraObjects.NONE;
        }
        List<DeviceClass> c = new ArrayList<>();
        for (KubeDra.DeviceClass k : nn(classes)) {
            KubeDra.DeviceClassSpec spec = k.spec();
            c.add(new DeviceClass(k.metadata().name(), spec == null ? null : selectors(spec.selectors()),
                    spec == null ? null : opaque(spec.config()), spec == null ? null : spec.extendedResourceName(),
                    created(k.metadata().creationTimestamp())));
        }
        List<ResourceClaim> rc = new ArrayList<>();
        for (KubeDra.ResourceClaim k : nn(claims)) {
            rc.add(claim(k));
        }
        List<ResourceClaimTemplate> t = new ArrayList<>();
        for (KubeDra.ResourceClaimTemplate k : nn(templates)) {
            KubeDra.ClaimSpec spec = k.spec() == null ? null : k.spec().spec();
            t.add(new ResourceClaimTemplate(k.metadata().namespaceOrDefault(), k.metadata().name(), claimSpec(spec)));
        }
        if (onlyRead) {
            attributes.keepOnly(ClaimCatalog.readAttributes(c, specs(rc, t)));
        }
        List<ResourceSlice> s = new ArrayList<>();
        for (KubeDra.ResourceSlice k : nn(slices)) {
            s.add(slice(k));
        }
        return new DraObjects(c, s, rc, t);
    }

    /** The distinct specs of the claims and templates (claims of one template share one: see {@link #sharedSpecs}). */
    private static java.util.Collection<ResourceClaimSpec> specs(List<ResourceClaim> claims,
                                                                 List<ResourceClaimTemplate> templates) {
        java.util.Set<ResourceClaimSpec> out = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (ResourceClaim claim : claims) {
            out.add(claim.spec());
        }
        for (ResourceClaimTemplate template : templates) {
            out.add(template.spec());
        }
        return out;
    }

    /** Epoch seconds of a creation timestamp; 0 when absent or not RFC 3339 (it only orders classes). */
    private static long created(String timestamp) {
        return timestamp == null || !Timestamps.isValid(timestamp) ? 0 : Timestamps.epochSeconds(timestamp);
    }

    private static boolean empty(List<?> l) {
        return l == null || l.isEmpty();
    }

    private static <T> List<T> nn(List<T> l) {
        return l == null ? List.of() : l;
    }

    private List<DeviceSelector> selectors(List<KubeDra.Selector> in) {
        List<DeviceSelector> out = new ArrayList<>();
        for (KubeDra.Selector sel : nn(in)) {
            out.add(selectors.apply(sel.cel().expression()));
        }
        return out;
    }

    private static List<OpaqueConfig> opaque(List<KubeDra.Config> in) {
        List<OpaqueConfig> out = new ArrayList<>();
        for (KubeDra.Config k : nn(in)) {
            out.add(opaque(k.opaque()));
        }
        return out;
    }

    private static OpaqueConfig opaque(KubeDra.Opaque o) {
        return new OpaqueConfig(o.driver(), o.parameters() == null ? null : o.parameters().toString());
    }

    // ---------------------------------------------------------------- slices

    private ResourceSlice slice(KubeDra.ResourceSlice k) {
        KubeDra.ResourceSliceSpec spec = k.spec();
        KubeDra.Pool p = spec.pool();
        ResourceSlice.Pool pool = new ResourceSlice.Pool(p.name(), p.generation() == null ? 0 : p.generation(),
                p.resourceSliceCount() == null ? 1 : p.resourceSliceCount());
        List<Device> devices = new ArrayList<>();
        for (KubeDra.Device d : nn(spec.devices())) {
            devices.add(device(d, spec.driver()));
        }
        List<ResourceSlice.CounterSet> counters = new ArrayList<>();
        for (KubeDra.CounterSet cs : nn(spec.sharedCounters())) {
            counters.add(new ResourceSlice.CounterSet(cs.name(), counters(cs.counters())));
        }
        return new ResourceSlice(k.metadata().name(), spec.driver(), pool, blank(spec.nodeName()),
                terms(spec.nodeSelector()), Boolean.TRUE.equals(spec.allNodes()),
                Boolean.TRUE.equals(spec.perDeviceNodeSelection()), devices, counters);
    }

    private static String blank(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static FrozenMap<String, String> counters(Map<String, KubeDra.Counter> in) {
        if (in == null || in.isEmpty()) {
            return FrozenMap.copyOf(null);
        }
        FrozenMap.Builder<String, String> out = FrozenMap.builder(in.size());
        in.forEach((name, c) -> out.putDistinct(name, c.value().text()));
        return out.build();
    }

    private Device device(KubeDra.Device d, String driver) {
        FrozenMap<String, DeviceAttribute> attributes = this.attributes.of(d.attributes(), driver);
        FrozenMap<String, Device.Capacity> capacity = shared(sharedCapacity, d.capacity(), DraMapper::capacities);
        List<KubeDra.CounterConsumption> raw = d.consumesCounters(); // most devices have neither
        List<Device.CounterConsumption> consumes = raw == null || raw.isEmpty() ? null : consumption(raw);
        List<KubeDra.Taint> rawTaints = d.taints(); // most devices have none: no iterator for them
        List<Device.Taint> taints = null;
        if (rawTaints != null && !rawTaints.isEmpty()) {
            taints = new ArrayList<>(rawTaints.size());
            for (KubeDra.Taint t : rawTaints) {
                taints.add(new Device.Taint(t.key(), t.value(), t.effect()));
            }
        }
        return new Device(d.name(), attributes, capacity, consumes, taints,
                Boolean.TRUE.equals(d.allowMultipleAllocations()), Boolean.TRUE.equals(d.bindsToNode()),
                d.bindingConditions(), d.bindingFailureConditions(), blank(d.nodeName()), terms(d.nodeSelector()),
                Boolean.TRUE.equals(d.allNodes()));
    }

    /**
     * A device's {@code consumesCounters}, immutable (so the device keeps it as it is). One set, the usual case, is
     * shared by every device that takes the same counters from a set of that name: found by the identity of the
     * shared counters, then the set's name.
     */
    private List<Device.CounterConsumption> consumption(List<KubeDra.CounterConsumption> raw) {
        if (raw.size() == 1) {
            KubeDra.CounterConsumption cc = raw.get(0);
            FrozenMap<String, String> counters = shared(sharedCounters, cc.counters(), DraMapper::counters);
            Map<String, List<Device.CounterConsumption>> bySet = sharedConsumption.get(counters);
            if (bySet == null) {
                bySet = new HashMap<>();
                if (sharedConsumption.size() < MAX_SHARED) {
                    sharedConsumption.put(counters, bySet);
                }
            }
            List<Device.CounterConsumption> one = bySet.get(cc.counterSet());
            if (one == null) {
                one = List.of(new Device.CounterConsumption(cc.counterSet(), counters));
                if (bySet.size() < MAX_SHARED) {
                    bySet.put(cc.counterSet(), one);
                }
            }
            return one;
        }
        Device.CounterConsumption[] out = new Device.CounterConsumption[raw.size()];
        for (int i = 0; i < out.length; i++) {
            KubeDra.CounterConsumption cc = raw.get(i);
            out[i] = new Device.CounterConsumption(cc.counterSet(),
                    shared(sharedCounters, cc.counters(), DraMapper::counters));
        }
        return List.of(out);
    }

    private static <K, V> FrozenMap<String, V> shared(SharedValues<Map<String, K>, FrozenMap<String, V>> table,
                                                      Map<String, K> in, Function<Map<String, K>, FrozenMap<String, V>> map) {
        if (in == null || in.isEmpty()) {
            return FrozenMap.copyOf(null);
        }
        return table.get(in, map);
    }

    private static FrozenMap<String, Device.Capacity> capacities(Map<String, KubeDra.Capacity> in) {
        FrozenMap.Builder<String, Device.Capacity> out = FrozenMap.builder(in.size());
        in.forEach((name, c) -> out.put(name, new Device.Capacity(c.value().text(), policy(c.requestPolicy()))));
        return out.buildHashed();
    }

    static DeviceAttribute attribute(KubeDra.Attribute a) {
        if (a.intValue() != null) {
            return new DeviceAttribute.IntValue(a.intValue());
        }
        if (a.boolValue() != null) {
            return new DeviceAttribute.BoolValue(a.boolValue());
        }
        if (a.stringValue() != null) {
            return new DeviceAttribute.StringValue(a.stringValue());
        }
        return new DeviceAttribute.VersionValue(a.versionValue());
    }

    private static Device.RequestPolicy policy(KubeDra.RequestPolicy p) {
        if (p == null) {
            return null;
        }
        List<String> valid = new ArrayList<>();
        for (Qty q : nn(p.validValues())) {
            valid.add(q.text());
        }
        KubeDra.ValidRange r = p.validRange();
        return new Device.RequestPolicy(text(p.defaultValue()), valid, r == null ? null
                : new Device.ValidRange(text(r.min()), text(r.max()), text(r.step())));
    }

    private static String text(Qty q) {
        return q == null ? null : q.text();
    }

    private static List<NodeSelectorTerm> terms(Kube.NodeSelector s) {
        return s == null ? null : KubeMapper.nodeSelectorTerms(s);
    }

    // ---------------------------------------------------------------- claims

    private ResourceClaim claim(KubeDra.ResourceClaim k) {
        KubeDra.ClaimStatus status = k.status();
        AllocationResult allocation = status == null || status.allocation() == null ? null
                : allocation(status.allocation());
        List<ClaimConsumer> reserved = new ArrayList<>();
        if (status != null) {
            for (KubeDra.Consumer c : nn(status.reservedFor())) {
                reserved.add(new ClaimConsumer(c.apiGroup(), c.resource(), c.name(), c.uid()));
            }
        }
        KubeDra.ClaimMeta meta = k.metadata();
        Kube.ObjectMeta m = meta.common();
        return new ResourceClaim(namespaces.computeIfAbsent(m.namespaceOrDefault(), n -> n), m.name(), m.uid(),
                k.spec() == null ? claimSpec(null) : sharedSpecs.get(k.spec(), this::claimSpec), allocation, reserved,
                m.deletionTimestamp() != null, madeFor(meta));
    }

    /**
     * The pod a claim was made for by the scheduler, for the pod's extended resources: the controlling owner of a
     * claim annotated {@code resource.kubernetes.io/extended-resource-claim: "true"}, or null.
     */
    private static ResourceClaim.MadeFor madeFor(KubeDra.ClaimMeta m) {
        if (m.annotations() == null || !"true".equals(m.annotations().get(ResourceClaim.EXTENDED_RESOURCE_ANNOTATION))) {
            return null;
        }
        for (Kube.OwnerReference o : nn(m.ownerReferences())) {
            if (o != null && o.isController() && o.name() != null && o.uid() != null) {
                return new ResourceClaim.MadeFor(o.name(), o.uid());
            }
        }
        return null;
    }

    private ResourceClaimSpec claimSpec(KubeDra.ClaimSpec spec) {
        KubeDra.DeviceClaim d = spec == null ? null : spec.devices();
        if (d == null) {
            return new ResourceClaimSpec(List.of(), List.of(), List.of());
        }
        List<ResourceClaimSpec.Request> requests = new ArrayList<>();
        for (KubeDra.Request r : nn(d.requests())) {
            if (r.exactly() != null) {
                KubeDra.ExactRequest e = r.exactly();
                requests.add(ResourceClaimSpec.Request.exactly(r.name(), new ResourceClaimSpec.ExactRequest(
                        e.deviceClassName(), selectors(e.selectors()), mode(e.allocationMode()), count(e.count()),
                        Boolean.TRUE.equals(e.adminAccess()), tolerations(e.tolerations()),
                        capacity(e.capacity()))));
            } else {
                List<ResourceClaimSpec.SubRequest> subs = new ArrayList<>();
                for (KubeDra.SubRequest sr : r.firstAvailable()) {
                    subs.add(new ResourceClaimSpec.SubRequest(sr.name(), sr.deviceClassName(),
                            selectors(sr.selectors()), mode(sr.allocationMode()), count(sr.count()),
                            tolerations(sr.tolerations()), capacity(sr.capacity())));
                }
                requests.add(ResourceClaimSpec.Request.firstAvailable(r.name(), subs));
            }
        }
        List<ResourceClaimSpec.Constraint> constraints = new ArrayList<>();
        for (KubeDra.Constraint c : nn(d.constraints())) {
            constraints.add(new ResourceClaimSpec.Constraint(c.requests(), blank(c.matchAttribute()),
                    blank(c.distinctAttribute())));
        }
        List<ResourceClaimSpec.ClaimConfig> config = new ArrayList<>();
        for (KubeDra.Config c : nn(d.config())) {
            config.add(new ResourceClaimSpec.ClaimConfig(c.requests(), opaque(c.opaque())));
        }
        return new ResourceClaimSpec(requests, constraints, config);
    }

    private static ResourceClaimSpec.AllocationMode mode(String s) {
        return "All".equals(s) ? ResourceClaimSpec.AllocationMode.All : ResourceClaimSpec.AllocationMode.ExactCount;
    }

    private static long count(Long c) {
        return c == null ? 0 : c;
    }

    private static List<ResourceClaimSpec.Toleration> tolerations(List<KubeDra.Toleration> in) {
        List<ResourceClaimSpec.Toleration> out = new ArrayList<>();
        for (KubeDra.Toleration t : nn(in)) {
            out.add(new ResourceClaimSpec.Toleration(t.key(),
                    "Exists".equals(t.operator()) ? ResourceClaimSpec.Toleration.Operator.Exists
                            : ResourceClaimSpec.Toleration.Operator.Equal, t.value(), t.effect(), t.tolerationSeconds()));
        }
        return out;
    }

    private static Map<String, String> capacity(KubeDra.CapacityRequirements c) {
        Map<String, String> out = new LinkedHashMap<>();
        if (c != null && c.requests() != null) {
            c.requests().forEach((k, v) -> out.put(k, v.text()));
        }
        return out;
    }

    private static AllocationResult allocation(KubeDra.Allocation a) {
        List<AllocationResult.DeviceResult> results = new ArrayList<>();
        List<AllocationResult.AllocationConfig> config = new ArrayList<>();
        if (a.devices() != null) {
            for (KubeDra.Result r : nn(a.devices().results())) {
                Map<String, String> consumed = new LinkedHashMap<>();
                if (r.consumedCapacity() != null) {
                    r.consumedCapacity().forEach((k, v) -> consumed.put(k, v.text()));
                }
                results.add(new AllocationResult.DeviceResult(r.request(), r.driver(), r.pool(), r.device(),
                        Boolean.TRUE.equals(r.adminAccess()), tolerations(r.tolerations()), blank(r.shareID()),
                        consumed, null, null));
            }
            for (KubeDra.AllocationConfig c : nn(a.devices().config())) {
                config.add(new AllocationResult.AllocationConfig("FromClass".equals(c.source())
                        ? AllocationResult.ConfigSource.FromClass : AllocationResult.ConfigSource.FromClaim,
                        c.requests(), opaque(c.opaque())));
            }
        }
        return new AllocationResult(results, config, terms(a.nodeSelector()));
    }
}
