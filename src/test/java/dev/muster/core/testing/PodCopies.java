package dev.muster.core.testing;

import dev.muster.core.model.Pod;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Map;

/** A pod with some of its record components replaced, by component name: for tests that change one field in turn. */
public final class PodCopies {
    /** The value that stands for null in a change map ({@code Map.of} takes no nulls). */
    public static final Object NONE = new Object();

    private PodCopies() {
    }

    public static Pod with(Pod p, Map<String, Object> changes) {
        try {
            RecordComponent[] cs = Pod.class.getRecordComponents();
            Object[] args = new Object[cs.length];
            Class<?>[] types = new Class<?>[cs.length];
            for (int i = 0; i < cs.length; i++) {
                types[i] = cs[i].getType();
                Object v = changes.containsKey(cs[i].getName()) ? changes.get(cs[i].getName())
                        : cs[i].getAccessor().invoke(p);
                args[i] = v == NONE ? null : v;
            }
            Constructor<Pod> k = Pod.class.getDeclaredConstructor(types);
            return k.newInstance(args);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
