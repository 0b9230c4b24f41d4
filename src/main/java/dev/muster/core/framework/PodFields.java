package dev.muster.core.framework;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * A set of {@link PodField}s that pods are compared by: a hash and an equality over exactly those fields, in enum
 * order. Built once per runtime; {@link #hash} and {@link #same} walk a fixed array and allocate nothing, as they run
 * for every pod scheduled. Immutable.
 */
public final class PodFields {
    private final PodField[] fields;
    private final Set<PodField> set;

    private PodFields(Set<PodField> set) {
        this.set = set;
        this.fields = set.toArray(new PodField[0]);
    }

    public static PodFields of(Collection<PodField> fields) {
        EnumSet<PodField> s = EnumSet.noneOf(PodField.class);
        s.addAll(fields);
        return new PodFields(Collections.unmodifiableSet(s));
    }

    /** The fields compared, in enum order. */
    public Set<PodField> fields() {
        return set;
    }

    /** A hash of the pod's values of these fields. */
    public int hash(PodInfo pod) {
        int h = 1;
        for (PodField f : fields) {
            h = 31 * h + f.hash(pod);
        }
        return h;
    }

    /** Whether the two pods have equal values in every one of these fields. */
    public boolean same(PodInfo a, PodInfo b) {
        for (PodField f : fields) {
            if (!f.same(a, b)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return set.toString();
    }
}
