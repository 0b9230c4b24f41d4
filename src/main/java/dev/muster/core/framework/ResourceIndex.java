package dev.muster.core.framework;

import dev.muster.core.model.ResourceList;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;

/**
 * Dense numbering of the resources of one snapshot: 0 = cpu (millicores), 1 = memory, 2 = ephemeral-storage,
 * then every scalar resource (extended resources, hugepages) in name order. The pod count is tracked apart,
 * as kube-scheduler does ({@code allowedPodNumber}).
 */
public final class ResourceIndex {
    public static final int CPU = 0;
    public static final int MEMORY = 1;
    public static final int EPHEMERAL_STORAGE = 2;

    private final String[] names;
    private final Map<String, Integer> byName;

    public ResourceIndex(SortedSet<String> scalarNames) {
        names = new String[3 + scalarNames.size()];
        names[CPU] = "cpu";
        names[MEMORY] = "memory";
        names[EPHEMERAL_STORAGE] = "ephemeral-storage";
        int i = 3;
        for (String s : scalarNames) {
            names[i++] = s;
        }
        byName = new HashMap<>();
        for (int k = 0; k < names.length; k++) {
            byName.put(names[k], k);
        }
    }

    /** The index of the scalar resources named in any of {@code lists}, with the three fixed ones first. */
    public static ResourceIndex of(Iterable<ResourceList> lists) {
        java.util.TreeSet<String> scalars = new java.util.TreeSet<>();
        for (ResourceList list : lists) {
            for (int i = 0; i < list.size(); i++) {
                if (ResourceList.isScalar(list.name(i))) {
                    scalars.add(list.name(i));
                }
            }
        }
        return new ResourceIndex(scalars);
    }

    public int size() {
        return names.length;
    }

    public String name(int index) {
        return names[index];
    }

    /** Index of a resource name, or -1 when no object of the snapshot mentions it. */
    public int indexOf(String name) {
        Integer i = byName.get(name);
        return i == null ? -1 : i;
    }

    public String[] names() {
        return Arrays.copyOf(names, names.length);
    }
}
