package dev.muster.core.snapshot;

import dev.muster.core.model.PriorityClass;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream priority admission, applied after the fact: an explicit priority wins; else the named
 * PriorityClass's value; else, with no class named, the global-default class (the one with the highest value
 * if several claim it, then the first name); else 0. A named class that is not in the snapshot resolves to 0.
 */
final class PriorityResolver {
    private final Map<String, Integer> byName = new HashMap<>();
    private final int globalDefault;

    PriorityResolver(List<PriorityClass> classes) {
        PriorityClass dflt = null;
        for (PriorityClass pc : classes) {
            byName.put(pc.name(), pc.value());
            if (pc.globalDefault() && (dflt == null || pc.value() > dflt.value()
                    || (pc.value() == dflt.value() && pc.name().compareTo(dflt.name()) < 0))) {
                dflt = pc;
            }
        }
        globalDefault = dflt == null ? 0 : dflt.value();
    }

    int resolve(Integer explicit, String className) {
        if (explicit != null) {
            return explicit;
        }
        if (className == null || className.isEmpty()) {
            return globalDefault;
        }
        Integer v = byName.get(className);
        return v == null ? 0 : v;
    }
}
