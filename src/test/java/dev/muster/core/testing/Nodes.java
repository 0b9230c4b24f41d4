package dev.muster.core.testing;

import dev.muster.core.model.Node;
import dev.muster.core.model.ResourceList;
import dev.muster.core.model.Taint;
import dev.muster.core.model.TaintEffect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds model Nodes: {@code node("n1").allocatable("cpu", "4").label("zone", "a").taint(...).build()}. Pods default to 110. */
public final class Nodes {
    private final String name;
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final Map<String, Long> allocatable = new LinkedHashMap<>();
    private final List<Taint> taints = new ArrayList<>();
    private boolean unschedulable;

    private Nodes(String name) {
        this.name = name;
        allocatable.put(ResourceList.PODS, 110L);
    }

    public static Nodes node(String name) {
        return new Nodes(name);
    }

    public Nodes label(String key, String value) {
        labels.put(key, value);
        return this;
    }

    public Nodes allocatable(String resource, String quantity) {
        allocatable.put(resource, Quantities.parse(resource, quantity));
        return this;
    }

    public Nodes taint(String key, String value, TaintEffect effect) {
        taints.add(new Taint(key, value, effect));
        return this;
    }

    public Nodes unschedulable() {
        this.unschedulable = true;
        return this;
    }

    public Node build() {
        return new Node(name, "uid-" + name, labels, taints, unschedulable, ResourceList.of(allocatable));
    }
}
