package dev.muster.core.framework;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * State one pod's scheduling attempt carries from PreFilter to Filter and from PreScore to Score. Written only
 * in the sequential PreFilter/PreScore phases; read concurrently by Filter/Score. Never iterated, so its map's
 * order cannot leak into a decision.
 */
public final class CycleState {
    private final Map<StateKey<?>, Object> values = new IdentityHashMap<>();

    public <T> void put(StateKey<T> key, T value) {
        values.put(key, value);
    }

    @SuppressWarnings("unchecked")
    public <T> T get(StateKey<T> key) {
        return (T) values.get(key);
    }
}
