package dev.muster.core.framework;

/** A typed key into {@link CycleState}: one per piece of per-pod state a plugin keeps between extension points. */
public final class StateKey<T> {
    private final String name;

    private StateKey(String name) {
        this.name = name;
    }

    public static <T> StateKey<T> of(String name) {
        return new StateKey<>(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
