package dev.muster.adapter.kube;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One compilation's table of raw values already compiled, so that equal raw values (a Deployment's affinity and
 * tolerations, the attributes of GPUs of one model) compile to one shared immutable object. The byte path often hands
 * out one decoded object for sub-objects that repeat byte for byte, so a lookup tries the object itself before
 * hashing its content. At most {@code max} values are kept, which bounds the table, not correctness: past it, values
 * are compiled each time.
 */
final class SharedValues<K, V> {
    private final int max;
    private final Map<K, V> byIdentity = new IdentityHashMap<>();
    private final Map<K, V> byValue = new HashMap<>();

    SharedValues(int max) {
        this.max = max;
    }

    /** The compiled value of {@code raw}: one compiled before from an equal raw value, else {@code compile(raw)}. */
    V get(K raw, Function<K, V> compile) {
        V v = byIdentity.get(raw);
        if (v != null) {
            return v;
        }
        v = byValue.get(raw);
        if (v == null) {
            v = compile.apply(raw);
            if (byValue.size() < max) {
                byValue.put(raw, v);
            }
        }
        if (byIdentity.size() < max) {
            byIdentity.put(raw, v);
        }
        return v;
    }
}
