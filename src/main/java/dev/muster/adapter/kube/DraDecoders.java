package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The decoders of a {@link KubeDra.ResourceSlice}'s spec and its devices: a large cluster publishes one slice per node
 * and driver, each with a handful of devices whose attribute and capacity maps repeat from node to node. Maps that
 * repeat byte for byte are recalled, the counters a partition consumes too; the rarely set parts (node selectors,
 * taints, request policies) go to databind as they are.
 */
final class DraDecoders extends RecordReader {
    // each read made once per request, so that reading allocates none
    final FieldReader.ObjectBody<KubeDra.ResourceSliceSpec> spec = this::spec;
    private final FieldReader.ObjectBody<KubeDra.Pool> pool = this::pool;
    private final FieldReader.ObjectBody<KubeDra.Device> device = this::device;
    private final FieldReader.ValueBody<KubeDra.Attribute> attributeValue = (v, f) -> attribute();
    private final FieldReader.ObjectBody<KubeDra.Attribute> attribute = () ->
            in.recalled(FieldReader.DEVICE_ATTRIBUTE, JsonToken.START_OBJECT, "attributes", attributeValue);
    private final FieldReader.ObjectBody<KubeDra.Capacity> capacity = this::capacity;
    private final FieldReader.ValueBody<Map<String, KubeDra.Attribute>> attributes = (v, f) ->
            in.objectMap(v, f, KubeDra.Device.class, KubeDra.Attribute.class, attribute);
    private final FieldReader.ValueBody<Map<String, KubeDra.Capacity>> capacities = (v, f) ->
            in.objectMap(v, f, KubeDra.Device.class, KubeDra.Capacity.class, capacity);
    private final FieldReader.ObjectBody<KubeDra.CounterConsumption> consumption = this::consumption;
    private final FieldReader.ObjectBody<KubeDra.Counter> counter = this::counter;
    private final FieldReader.ValueBody<Map<String, KubeDra.Counter>> counters = (v, f) ->
            in.objectMap(v, f, KubeDra.CounterConsumption.class, KubeDra.Counter.class, counter);

    DraDecoders(FieldReader in) {
        super(in);
    }

    private KubeDra.ResourceSliceSpec spec() throws IOException {
        Class<?> r = KubeDra.ResourceSliceSpec.class;
        String driver = null;
        KubeDra.Pool poolValue = null;
        String nodeName = null;
        Kube.NodeSelector nodeSelector = null;
        Boolean allNodes = null;
        Boolean perDevice = null;
        List<KubeDra.Device> devices = null;
        List<KubeDra.CounterSet> counters = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "driver" -> driver = shared(f, r);
                case "pool" -> poolValue = object(f, r, pool);
                case "nodeName" -> nodeName = string(f, r);
                case "nodeSelector" -> nodeSelector = other(f, r);
                case "allNodes" -> allNodes = bool(f, r);
                case "perDeviceNodeSelection" -> perDevice = bool(f, r);
                case "devices" -> devices = objects(f, r, KubeDra.Device.class, 8, device);
                case "sharedCounters" -> counters = other(f, r);
                default -> in.skip();
            }
        }
        return new KubeDra.ResourceSliceSpec(driver, poolValue, nodeName, nodeSelector, allNodes, perDevice, devices,
                counters);
    }

    private KubeDra.Pool pool() throws IOException {
        Class<?> r = KubeDra.Pool.class;
        String name = null;
        Long generation = null;
        Long count = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "name" -> name = string(f, r);
                case "generation" -> generation = longValue(f, r);
                case "resourceSliceCount" -> count = longValue(f, r);
                default -> in.skip();
            }
        }
        return new KubeDra.Pool(name, generation, count);
    }

    private KubeDra.Device device() throws IOException {
        Class<?> r = KubeDra.Device.class;
        String name = null;
        Map<String, KubeDra.Attribute> attributeMap = null;
        Map<String, KubeDra.Capacity> capacityMap = null;
        List<KubeDra.CounterConsumption> consumes = null;
        List<KubeDra.Taint> taints = null;
        Boolean multiple = null;
        Boolean bindsToNode = null;
        List<String> binding = null;
        List<String> bindingFailure = null;
        String nodeName = null;
        Kube.NodeSelector nodeSelector = null;
        Boolean allNodes = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "name" -> name = shared(f, r); // gpu-0, gpu-1, ... on every node
                case "attributes" -> attributeMap = recalled(f, r, FieldReader.DEVICE_ATTRIBUTES, attributes);
                case "capacity" -> capacityMap = recalled(f, r, FieldReader.DEVICE_CAPACITY, capacities);
                case "consumesCounters" -> consumes = objects(f, r, KubeDra.CounterConsumption.class, 1, consumption);
                case "taints" -> taints = other(f, r);
                case "allowMultipleAllocations" -> multiple = bool(f, r);
                case "bindsToNode" -> bindsToNode = bool(f, r);
                case "bindingConditions" -> binding = strings(f, r);
                case "bindingFailureConditions" -> bindingFailure = strings(f, r);
                case "nodeName" -> nodeName = string(f, r);
                case "nodeSelector" -> nodeSelector = other(f, r);
                case "allNodes" -> allNodes = bool(f, r);
                default -> in.skip();
            }
        }
        return new KubeDra.Device(name, attributeMap, capacityMap, consumes, taints, multiple, bindsToNode, binding,
                bindingFailure, nodeName, nodeSelector, allNodes);
    }

    private KubeDra.Attribute attribute() throws IOException {
        Class<?> r = KubeDra.Attribute.class;
        Long intValue = null;
        Boolean boolValue = null;
        String stringValue = null;
        String version = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "int" -> intValue = longValue(f, r);
                case "bool" -> boolValue = bool(f, r);
                case "string" -> stringValue = shared(f, r);
                case "version" -> version = shared(f, r);
                default -> in.skip();
            }
        }
        return new KubeDra.Attribute(intValue, boolValue, stringValue, version);
    }

    private KubeDra.Capacity capacity() throws IOException {
        Class<?> r = KubeDra.Capacity.class;
        Qty value = null;
        KubeDra.RequestPolicy policy = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "value" -> value = quantity(f, r);
                case "requestPolicy" -> policy = other(f, r);
                default -> in.skip();
            }
        }
        return new KubeDra.Capacity(value, policy);
    }

    /** One counter set a partition draws on: the partitions of one profile draw the same counters on every GPU. */
    private KubeDra.CounterConsumption consumption() throws IOException {
        Class<?> r = KubeDra.CounterConsumption.class;
        String counterSet = null;
        Map<String, KubeDra.Counter> map = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "counterSet" -> counterSet = shared(f, r);
                case "counters" -> map = recalled(f, r, FieldReader.DEVICE_COUNTERS, counters);
                default -> in.skip();
            }
        }
        return new KubeDra.CounterConsumption(counterSet, map);
    }

    private KubeDra.Counter counter() throws IOException {
        Class<?> r = KubeDra.Counter.class;
        Qty value = null;
        for (String f = in.first(); f != null; f = in.next()) {
            if (f.equals("value")) {
                value = quantity(f, r);
            } else {
                in.skip();
            }
        }
        return new KubeDra.Counter(value);
    }

    /** A quantity field: a string or integer token read as {@link FieldReader#qty}; any other as databind reads it. */
    private Qty quantity(String f, Class<?> r) throws IOException {
        try {
            JsonToken v = in.value();
            return v == JsonToken.VALUE_STRING || v == JsonToken.VALUE_NUMBER_INT ? in.qty() : in.other(v, f, r);
        } catch (Exception e) {
            throw FieldReader.wrap(e, r, f);
        }
    }
}
