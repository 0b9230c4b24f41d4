package dev.muster.adapter.kube;

import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The decoders of a {@link Kube.Node}'s spec and status and everything under them. Equal node specs, statuses and
 * taints lists are shared within the request, and taints lists and quantity maps that repeat byte for byte are
 * recalled (the nodes of a pool are alike).
 */
final class NodeDecoders {
    private NodeDecoders() {
    }

    /** The decoder of a Node, with its own decoders for what is under it. */
    static StreamingDecoders.TopDecoder<Kube.Node, Kube.NodeSpec, Kube.NodeStatus> create(Values in,
            StreamingDecoders.MetaDecoder meta) {
        return new StreamingDecoders.TopDecoder<>(in, Kube.Node.class, meta,
                new NodeSpecDecoder(in, new TaintDecoder(in)), new NodeStatusDecoder(in), Kube.Node::new);
    }

    static final class NodeSpecDecoder extends ObjectDecoder<Kube.NodeSpec> {
        private final TaintDecoder taintDecoder;
        private Boolean unschedulable;
        private List<Kube.Taint> taints;

        NodeSpecDecoder(Values in, TaintDecoder taint) {
            super(in, Kube.NodeSpec.class);
            this.taintDecoder = taint;
        }

        @Override
        void reset() {
            unschedulable = null;
            taints = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "unschedulable" -> unschedulable = bool(v, f);
                case "taints" -> taints = in.recalled(Values.TAINTS, v, first ->
                        in.sharedList(objects(first, f, Kube.Taint.class, 2, taintDecoder)));
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.NodeSpec build() {
            return in.canonical(new Kube.NodeSpec(unschedulable, taints));
        }
    }

    static final class TaintDecoder extends ObjectDecoder<Kube.Taint> {
        private String key;
        private String value;
        private String effect;

        TaintDecoder(Values in) {
            super(in, Kube.Taint.class);
        }

        @Override
        void reset() {
            key = null;
            value = null;
            effect = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "key" -> key = shared(v, f);
                case "value" -> value = shared(v, f);
                case "effect" -> effect = shared(v, f);
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.Taint build() {
            return new Kube.Taint(key, value, effect);
        }
    }

    static final class NodeStatusDecoder extends ObjectDecoder<Kube.NodeStatus> {
        private Map<String, Qty> allocatable;
        private Map<String, Qty> capacity;

        NodeStatusDecoder(Values in) {
            super(in, Kube.NodeStatus.class);
        }

        @Override
        void reset() {
            allocatable = null;
            capacity = null;
        }

        @Override
        boolean field(String f, JsonToken v) throws IOException {
            switch (f) {
                case "allocatable" -> allocatable = in.recalled(Values.NODE_QUANTITIES, v, first -> qtyMap(first, f));
                case "capacity" -> capacity = in.recalled(Values.NODE_QUANTITIES, v, first -> qtyMap(first, f));
                default -> {
                    return false;
                }
            }
            return true;
        }

        @Override
        Kube.NodeStatus build() {
            return in.canonical(new Kube.NodeStatus(allocatable, capacity));
        }
    }
}
