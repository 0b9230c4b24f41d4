package dev.muster.core.model;

import java.util.List;
import java.util.Map;

/** The parts of a core/v1 Node the scheduler reads. {@code allocatable} is {@code status.allocatable}. */
public record Node(String name, String uid, Map<String, String> labels, List<Taint> taints, boolean unschedulable,
                   ResourceList allocatable) {
    public Node {
        labels = SortedStringMap.copyOf(labels);
        taints = taints == null ? List.of() : List.copyOf(taints);
        allocatable = allocatable == null ? ResourceList.EMPTY : allocatable;
    }
}
