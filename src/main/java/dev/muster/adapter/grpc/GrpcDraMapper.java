package dev.muster.adapter.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Value;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeDra;
import dev.muster.adapter.kube.Qty;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.muster.adapter.grpc.GrpcRequestMapper.list;
import static dev.muster.adapter.grpc.GrpcRequestMapper.str;
import static dev.muster.adapter.grpc.GrpcRequestMapper.strings;
import static dev.muster.adapter.grpc.GrpcRequestMapper.quantities;
import static dev.muster.adapter.grpc.GrpcRequestMapper.meta;
import static dev.muster.adapter.grpc.GrpcRequestMapper.nodeSelector;

/**
 * The DRA objects of a gRPC request (DeviceClasses, ResourceSlices, ResourceClaims and their templates) mapped to the
 * REST shapes, as {@link GrpcRequestMapper} maps the rest: the same {@code KubeDra} records the JSON decoder makes,
 * so one validator and one compiler serve both.
 */
final class GrpcDraMapper {
    private GrpcDraMapper() {
    }

    static KubeDra.DeviceClass deviceClass(dev.muster.grpc.v1.DeviceClass d) {
        KubeDra.DeviceClassSpec spec = null;
        if (d.hasSpec()) {
            spec = new KubeDra.DeviceClassSpec(list(d.getSpec().getSelectorsList(), GrpcDraMapper::selector),
                    list(d.getSpec().getConfigList(), GrpcDraMapper::config),
                    d.getSpec().hasExtendedResourceName() ? d.getSpec().getExtendedResourceName() : null);
        }
        return new KubeDra.DeviceClass(d.hasApiVersion() ? d.getApiVersion() : null,
                d.hasKind() ? d.getKind() : null, meta(d.hasMetadata(), d.getMetadata()), spec);
    }

    private static KubeDra.Selector selector(dev.muster.grpc.v1.DeviceSelector s) {
        return new KubeDra.Selector(s.hasCel() ? new KubeDra.CelSelector(str(s.getCel().getExpression())) : null);
    }

    private static KubeDra.Config config(dev.muster.grpc.v1.DeviceConfiguration c) {
        return new KubeDra.Config(strings(c.getRequestsList()), c.hasOpaque() ? opaque(c.getOpaque()) : null);
    }

    private static KubeDra.Opaque opaque(dev.muster.grpc.v1.OpaqueDeviceConfiguration o) {
        return new KubeDra.Opaque(str(o.getDriver()), o.hasParameters() ? json(o.getParameters()) : null);
    }

    /**
     * A {@code google.protobuf.Value} as the JSON tree Jackson reads for the same JSON: integral numbers become int
     * (or long) nodes as Jackson reads them, so the parameters reach the driver as the same text.
     */
    static JsonNode json(Value v) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        switch (v.getKindCase()) {
            case NULL_VALUE:
            case KIND_NOT_SET:
                return f.nullNode();
            case BOOL_VALUE:
                return f.booleanNode(v.getBoolValue());
            case STRING_VALUE:
                return f.textNode(v.getStringValue());
            case NUMBER_VALUE: {
                double d = v.getNumberValue();
                if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 0x1p53) {
                    long l = (long) d;
                    return l == (int) l ? f.numberNode((int) l) : f.numberNode(l);
                }
                return f.numberNode(d);
            }
            case LIST_VALUE: {
                ArrayNode a = f.arrayNode(v.getListValue().getValuesCount());
                for (Value e : v.getListValue().getValuesList()) {
                    a.add(json(e));
                }
                return a;
            }
            case STRUCT_VALUE: {
                ObjectNode o = f.objectNode();
                for (Map.Entry<String, Value> e : v.getStructValue().getFieldsMap().entrySet()) {
                    o.set(e.getKey(), json(e.getValue()));
                }
                return o;
            }
            default:
                throw new IllegalStateException("unknown Value kind " + v.getKindCase());
        }
    }

    // ---------------------------------------------------------------- resource.k8s.io: ResourceSlice

    static KubeDra.ResourceSlice resourceSlice(dev.muster.grpc.v1.ResourceSlice r) {
        KubeDra.ResourceSliceSpec spec = null;
        if (r.hasSpec()) {
            var s = r.getSpec();
            KubeDra.Pool pool = null;
            if (s.hasPool()) {
                var p = s.getPool();
                pool = new KubeDra.Pool(str(p.getName()), p.hasGeneration() ? p.getGeneration() : null,
                        p.hasResourceSliceCount() ? p.getResourceSliceCount() : null);
            }
            spec = new KubeDra.ResourceSliceSpec(str(s.getDriver()), pool, str(s.getNodeName()),
                    s.hasNodeSelector() ? nodeSelector(s.getNodeSelector()) : null,
                    s.hasAllNodes() ? s.getAllNodes() : null,
                    s.hasPerDeviceNodeSelection() ? s.getPerDeviceNodeSelection() : null,
                    list(s.getDevicesList(), GrpcDraMapper::device),
                    list(s.getSharedCountersList(), c -> new KubeDra.CounterSet(str(c.getName()),
                            counters(c.getCountersMap()))));
        }
        return new KubeDra.ResourceSlice(r.hasApiVersion() ? r.getApiVersion() : null,
                r.hasKind() ? r.getKind() : null, meta(r.hasMetadata(), r.getMetadata()), spec);
    }

    private static KubeDra.Device device(dev.muster.grpc.v1.Device d) {
        return new KubeDra.Device(str(d.getName()), attributes(d.getAttributesMap()), capacities(d.getCapacityMap()),
                list(d.getConsumesCountersList(), c -> new KubeDra.CounterConsumption(str(c.getCounterSet()),
                        counters(c.getCountersMap()))),
                list(d.getTaintsList(), t -> new KubeDra.Taint(str(t.getKey()), str(t.getValue()), str(t.getEffect()))),
                d.hasAllowMultipleAllocations() ? d.getAllowMultipleAllocations() : null,
                d.hasBindsToNode() ? d.getBindsToNode() : null, strings(d.getBindingConditionsList()),
                strings(d.getBindingFailureConditionsList()), str(d.getNodeName()),
                d.hasNodeSelector() ? nodeSelector(d.getNodeSelector()) : null,
                d.hasAllNodes() ? d.getAllNodes() : null);
    }

    private static Map<String, KubeDra.Attribute> attributes(Map<String, dev.muster.grpc.v1.DeviceAttribute> in) {
        if (in.isEmpty()) {
            return null;
        }
        Map<String, KubeDra.Attribute> out = new HashMap<>(in.size() * 2);
        for (Map.Entry<String, dev.muster.grpc.v1.DeviceAttribute> e : in.entrySet()) {
            var a = e.getValue();
            out.put(e.getKey(), new KubeDra.Attribute(a.hasIntValue() ? a.getIntValue() : null,
                    a.hasBoolValue() ? a.getBoolValue() : null, a.hasStringValue() ? a.getStringValue() : null,
                    a.hasVersionValue() ? a.getVersionValue() : null));
        }
        return out;
    }

    private static Map<String, KubeDra.Capacity> capacities(Map<String, dev.muster.grpc.v1.DeviceCapacity> in) {
        if (in.isEmpty()) {
            return null;
        }
        Map<String, KubeDra.Capacity> out = new HashMap<>(in.size() * 2);
        for (Map.Entry<String, dev.muster.grpc.v1.DeviceCapacity> e : in.entrySet()) {
            var c = e.getValue();
            KubeDra.RequestPolicy policy = null;
            if (c.hasRequestPolicy()) {
                var p = c.getRequestPolicy();
                KubeDra.ValidRange range = null;
                if (p.hasValidRange()) {
                    var r = p.getValidRange();
                    range = new KubeDra.ValidRange(qty(r.getMin()), qty(r.getMax()), qty(r.getStep()));
                }
                policy = new KubeDra.RequestPolicy(qty(p.getDefaultValue()),
                        list(p.getValidValuesList(), Qty::of), range);
            }
            out.put(e.getKey(), new KubeDra.Capacity(qty(c.getValue()), policy));
        }
        return out;
    }

    private static Map<String, KubeDra.Counter> counters(Map<String, dev.muster.grpc.v1.Counter> in) {
        if (in.isEmpty()) {
            return null;
        }
        Map<String, KubeDra.Counter> out = new HashMap<>(in.size() * 2);
        for (Map.Entry<String, dev.muster.grpc.v1.Counter> e : in.entrySet()) {
            out.put(e.getKey(), new KubeDra.Counter(qty(e.getValue().getValue())));
        }
        return out;
    }

    /** A quantity string: "" is absent, as for any plain string. */
    private static Qty qty(String s) {
        return s.isEmpty() ? null : Qty.of(s);
    }

    // ---------------------------------------------------------------- resource.k8s.io: ResourceClaim, template

    static KubeDra.ResourceClaim resourceClaim(dev.muster.grpc.v1.ResourceClaim c) {
        KubeDra.ClaimStatus status = null;
        if (c.hasStatus()) {
            var s = c.getStatus();
            status = new KubeDra.ClaimStatus(s.hasAllocation() ? allocation(s.getAllocation()) : null,
                    list(s.getReservedForList(), r -> new KubeDra.Consumer(str(r.getApiGroup()), str(r.getResource()),
                            str(r.getName()), str(r.getUid()))));
        }
        return new KubeDra.ResourceClaim(c.hasApiVersion() ? c.getApiVersion() : null,
                c.hasKind() ? c.getKind() : null, c.hasMetadata() ? KubeDra.ClaimMeta.of(meta(c.getMetadata()),
                owners(c.getMetadata())) : null, c.hasSpec() ? claimSpec(c.getSpec()) : null, status);
    }

    private static List<Kube.OwnerReference> owners(dev.muster.grpc.v1.ObjectMeta m) {
        return m.getOwnerReferencesCount() == 0 ? null : list(m.getOwnerReferencesList(), o -> new Kube.OwnerReference(
                str(o.getApiVersion()), str(o.getKind()), str(o.getName()), str(o.getUid()),
                o.hasController() ? o.getController() : null,
                o.hasBlockOwnerDeletion() ? o.getBlockOwnerDeletion() : null));
    }

    static KubeDra.ResourceClaimTemplate resourceClaimTemplate(dev.muster.grpc.v1.ResourceClaimTemplate t) {
        KubeDra.TemplateSpec spec = null;
        if (t.hasSpec()) {
            spec = new KubeDra.TemplateSpec(t.getSpec().hasSpec() ? claimSpec(t.getSpec().getSpec()) : null);
        }
        return new KubeDra.ResourceClaimTemplate(t.hasApiVersion() ? t.getApiVersion() : null,
                t.hasKind() ? t.getKind() : null, meta(t.hasMetadata(), t.getMetadata()), spec);
    }

    private static KubeDra.ClaimSpec claimSpec(dev.muster.grpc.v1.ResourceClaimSpec s) {
        KubeDra.DeviceClaim devices = null;
        if (s.hasDevices()) {
            var d = s.getDevices();
            devices = new KubeDra.DeviceClaim(list(d.getRequestsList(), GrpcDraMapper::request),
                    list(d.getConstraintsList(), c -> new KubeDra.Constraint(strings(c.getRequestsList()),
                            str(c.getMatchAttribute()), str(c.getDistinctAttribute()))),
                    list(d.getConfigList(), GrpcDraMapper::config));
        }
        return new KubeDra.ClaimSpec(devices);
    }

    private static KubeDra.Request request(dev.muster.grpc.v1.DeviceRequest r) {
        KubeDra.ExactRequest exactly = null;
        if (r.hasExactly()) {
            var e = r.getExactly();
            exactly = new KubeDra.ExactRequest(str(e.getDeviceClassName()),
                    list(e.getSelectorsList(), GrpcDraMapper::selector), str(e.getAllocationMode()),
                    e.hasCount() ? e.getCount() : null, e.hasAdminAccess() ? e.getAdminAccess() : null,
                    list(e.getTolerationsList(), GrpcDraMapper::deviceToleration),
                    e.hasCapacity() ? capacityRequirements(e.getCapacity()) : null);
        }
        return new KubeDra.Request(str(r.getName()), exactly, list(r.getFirstAvailableList(),
                s -> new KubeDra.SubRequest(str(s.getName()), str(s.getDeviceClassName()),
                        list(s.getSelectorsList(), GrpcDraMapper::selector), str(s.getAllocationMode()),
                        s.hasCount() ? s.getCount() : null,
                        list(s.getTolerationsList(), GrpcDraMapper::deviceToleration),
                        s.hasCapacity() ? capacityRequirements(s.getCapacity()) : null)));
    }

    private static KubeDra.CapacityRequirements capacityRequirements(dev.muster.grpc.v1.CapacityRequirements c) {
        return new KubeDra.CapacityRequirements(quantities(c.getRequestsMap()));
    }

    private static KubeDra.Toleration deviceToleration(dev.muster.grpc.v1.DeviceToleration t) {
        return new KubeDra.Toleration(str(t.getKey()), str(t.getOperator()), str(t.getValue()), str(t.getEffect()),
                t.hasTolerationSeconds() ? t.getTolerationSeconds() : null);
    }

    private static KubeDra.Allocation allocation(dev.muster.grpc.v1.AllocationResult a) {
        KubeDra.DeviceAllocation devices = null;
        if (a.hasDevices()) {
            var d = a.getDevices();
            devices = new KubeDra.DeviceAllocation(list(d.getResultsList(), r -> new KubeDra.Result(
                    str(r.getRequest()), str(r.getDriver()), str(r.getPool()), str(r.getDevice()),
                    r.hasAdminAccess() ? r.getAdminAccess() : null,
                    list(r.getTolerationsList(), GrpcDraMapper::deviceToleration), str(r.getShareId()),
                    quantities(r.getConsumedCapacityMap()))),
                    list(d.getConfigList(), c -> new KubeDra.AllocationConfig(str(c.getSource()),
                            strings(c.getRequestsList()), c.hasOpaque() ? opaque(c.getOpaque()) : null)));
        }
        return new KubeDra.Allocation(devices, a.hasNodeSelector() ? nodeSelector(a.getNodeSelector()) : null);
    }
}
