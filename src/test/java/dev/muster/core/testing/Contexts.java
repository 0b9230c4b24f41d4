package dev.muster.core.testing;

import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.model.PodGroup;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds a {@link GroupContext} by hand, as a cycle would see the group:
 * {@code Contexts.of(group).bound(a).pending(b, c).gated(d).build()}.
 */
public final class Contexts {
    private final PodGroup group;
    private final List<PodInfo> bound = new ArrayList<>();
    private final List<PodInfo> pending = new ArrayList<>();
    private final List<PodInfo> gated = new ArrayList<>();

    private Contexts(PodGroup group) {
        this.group = group;
    }

    public static Contexts of(PodGroup group) {
        return new Contexts(group);
    }

    public Contexts bound(PodInfo... pods) {
        bound.addAll(List.of(pods));
        return this;
    }

    public Contexts pending(PodInfo... pods) {
        pending.addAll(List.of(pods));
        return this;
    }

    public Contexts gated(PodInfo... pods) {
        gated.addAll(List.of(pods));
        return this;
    }

    public GroupContext build() {
        return new GroupContext(group, List.copyOf(bound), List.copyOf(pending), List.copyOf(gated));
    }
}
