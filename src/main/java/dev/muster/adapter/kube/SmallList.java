package dev.muster.adapter.kube;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An unmodifiable list over an exactly sized array: the lists the streaming decoders hand out. Unmodifiable because
 * equal lists (a pod's default tolerations, a container's ports) are shared within a request; null elements never
 * occur (a null inside a list is a decoding failure), but {@code contains(null)} answers false as a List should.
 */
final class SmallList<E> extends AbstractList<E> implements RandomAccess {
    private static final SmallList<Object> EMPTY = new SmallList<>(new Object[0]);

    private final Object[] a;

    private SmallList(Object[] a) {
        this.a = a;
    }

    @SuppressWarnings("unchecked")
    static <E> List<E> copyOf(List<? extends E> list) {
        if (list == null) {
            return null;
        }
        if (list.isEmpty()) {
            return (List<E>) EMPTY;
        }
        return new SmallList<>(list.toArray());
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        return (E) a[Objects.checkIndex(index, a.length)];
    }

    @Override
    public int size() {
        return a.length;
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (Object o : a) {
            h = 31 * h + o.hashCode();
        }
        return h;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (o instanceof SmallList<?> other) {
            if (other.a.length != a.length) {
                return false;
            }
            for (int i = 0; i < a.length; i++) {
                if (!a[i].equals(other.a[i])) {
                    return false;
                }
            }
            return true;
        }
        return super.equals(o);
    }
}
