package dev.muster.adapter.cel;

import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.DeviceSelector;
import dev.muster.core.dra.SelectorDevice;
import dev.muster.core.dra.SelectorException;
import dev.muster.core.dra.SelectorReads;

import java.util.AbstractMap;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/** A compiled selector: an immutable CEL program, evaluated under a fresh {@link EvaluationBudget} per call. */
final class CelDeviceSelector implements DeviceSelector {
    private final String expression;
    private final CelRuntime.Program program;
    private final long costLimit;
    private final SelectorReads reads;

    CelDeviceSelector(String expression, CelRuntime.Program program, long costLimit, SelectorReads reads) {
        this.expression = expression;
        this.program = program;
        this.costLimit = costLimit;
        this.reads = reads;
    }

    @Override
    public SelectorReads reads() {
        return reads;
    }

    @Override
    public String expression() {
        return expression;
    }

    @Override
    public boolean matches(SelectorDevice device) {
        Map<String, Object> vars = Map.of(DraCelEnvironment.DEVICE, deviceValue(device));
        EvaluationBudget budget = new EvaluationBudget(costLimit);
        EvaluationBudget previous = budget.enter();
        Object result;
        try {
            result = program.trace(vars, budget);
        } catch (CelEvaluationException e) {
            if (causedBy(e, EvaluationBudget.Exceeded.class)) {
                throw new SelectorException("operation cancelled: actual cost limit exceeded", e);
            }
            throw new SelectorException(e.getMessage(), e);
        } catch (EvaluationBudget.Exceeded e) {
            throw new SelectorException(e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new SelectorException("CEL evaluation failed: " + e, e);
        } finally {
            EvaluationBudget.leave(previous);
        }
        if (result instanceof Boolean b) {
            return b;
        }
        throw new SelectorException("CEL result of type " + typeName(result) + " could not be converted to bool");
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    static String typeName(Object v) {
        if (v == null || v instanceof dev.cel.common.values.NullValue || v instanceof com.google.protobuf.NullValue) {
            return "null_type";
        }
        if (v instanceof Long) {
            return "int";
        }
        if (v instanceof com.google.common.primitives.UnsignedLong) {
            return "uint";
        }
        if (v instanceof Double) {
            return "double";
        }
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof java.util.List) {
            return "list";
        }
        if (v instanceof Map) {
            return "map";
        }
        if (v instanceof QuantityValue) {
            return KubernetesLibraries.QUANTITY.name();
        }
        if (v instanceof SemverValue) {
            return KubernetesLibraries.SEMVER.name();
        }
        if (v instanceof java.util.Optional || v instanceof dev.cel.common.values.OptionalValue) {
            return "optional_type";
        }
        if (v instanceof com.google.protobuf.ByteString || v instanceof dev.cel.common.values.CelByteString) {
            return "bytes";
        }
        return v.getClass().getSimpleName();
    }

    /** The {@code device} variable: the API's shape, unknown domains reading as empty maps. */
    static Map<String, Object> deviceValue(SelectorDevice device) {
        Map<String, Object> attributes = new HashMap<>();
        device.attributes().forEach((domain, ids) -> {
            Map<String, Object> values = new HashMap<>();
            ids.forEach((id, attribute) -> values.put(id, attributeValue(domain, id, attribute)));
            attributes.put(domain, values);
        });
        Map<String, Object> capacity = new HashMap<>();
        device.capacity().forEach((domain, ids) -> {
            Map<String, Object> values = new HashMap<>();
            ids.forEach((id, value) -> values.put(id, QuantityValue.of(value)));
            capacity.put(domain, values);
        });
        Map<String, Object> d = new HashMap<>(8);
        d.put("driver", device.driver());
        d.put("attributes", new EmptyDefaultMap(attributes));
        d.put("capacity", new EmptyDefaultMap(capacity));
        d.put("allowMultipleAllocations", device.allowMultipleAllocations());
        return d;
    }

    private static Object attributeValue(String domain, String id, DeviceAttribute attribute) {
        if (attribute instanceof DeviceAttribute.IntValue v) {
            return v.value();
        }
        if (attribute instanceof DeviceAttribute.BoolValue v) {
            return v.value();
        }
        if (attribute instanceof DeviceAttribute.StringValue v) {
            return v.value();
        }
        if (attribute instanceof DeviceAttribute.VersionValue v) {
            try {
                return SemverValue.parseShared(v.value());
            } catch (IllegalArgumentException e) {
                throw new SelectorException("attribute " + domain + "/" + id + ": parse semantic version: " + e.getMessage(), e);
            }
        }
        throw new SelectorException("attribute " + domain + "/" + id + ": unsupported attribute value");
    }

    /** A read-only map whose lookups of absent keys give an empty map, as Kubernetes' attribute and capacity maps do. */
    static final class EmptyDefaultMap extends AbstractMap<String, Object> {
        private final Map<String, Object> entries;

        EmptyDefaultMap(Map<String, Object> entries) {
            this.entries = entries;
        }

        @Override
        public Object get(Object key) {
            Object v = entries.get(key);
            return v == null ? Collections.emptyMap() : v;
        }

        @Override
        public boolean containsKey(Object key) {
            return entries.containsKey(key);
        }

        @Override
        public int size() {
            return entries.size();
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return Collections.unmodifiableMap(entries).entrySet();
        }
    }

}
