package dev.muster.adapter.kube;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The decoders of a {@link Kube.Node}'s spec and status and everything under them. Equal node specs, statuses and
 * taints lists are shared within the request, and taints lists and quantity maps that repeat byte for byte are
 * recalled (the nodes of a pool are alike).
 */
final class NodeDecoders extends RecordReader {
    /** The spec of a node that is neither cordoned nor tainted: one for all of them. */
    private static final Kube.NodeSpec EMPTY_SPEC = new Kube.NodeSpec(null, null);
    // each read made once per request, so that reading allocates none
    final FieldReader.ObjectBody<Kube.NodeSpec> spec = this::spec;
    final FieldReader.ObjectBody<Kube.NodeStatus> status = this::status;
    private final FieldReader.ObjectBody<Kube.Taint> taint = this::taint;
    private final FieldReader.ValueBody<List<Kube.Taint>> taintList = (v, f) ->
            in.sharedList(in.objects(v, f, Kube.NodeSpec.class, Kube.Taint.class, 2, taint));
    private final FieldReader.ValueBody<Map<String, Qty>> quantities = (v, f) -> in.qtyMap(v, f, Kube.NodeStatus.class);

    NodeDecoders(FieldReader in) {
        super(in);
    }

    private Kube.NodeSpec spec() throws IOException {
        Class<?> r = Kube.NodeSpec.class;
        Boolean unschedulable = null;
        List<Kube.Taint> taints = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "unschedulable" -> unschedulable = bool(f, r);
                case "taints" -> taints = recalled(f, r, FieldReader.TAINTS, taintList);
                default -> in.skip();
            }
        }
        if (unschedulable == null && taints == null) {
            return EMPTY_SPEC; // most nodes: no lookup in the shared values (its hash and equals showed in profiles)
        }
        return in.canonical(new Kube.NodeSpec(unschedulable, taints));
    }

    private Kube.Taint taint() throws IOException {
        Class<?> r = Kube.Taint.class;
        String key = null;
        String value = null;
        String effect = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "key" -> key = shared(f, r);
                case "value" -> value = shared(f, r);
                case "effect" -> effect = shared(f, r);
                default -> in.skip();
            }
        }
        return new Kube.Taint(key, value, effect);
    }

    private Kube.NodeStatus status() throws IOException {
        Class<?> r = Kube.NodeStatus.class;
        Map<String, Qty> allocatable = null;
        Map<String, Qty> capacity = null;
        for (String f = in.first(); f != null; f = in.next()) {
            switch (f) {
                case "allocatable" -> allocatable = recalled(f, r, FieldReader.NODE_QUANTITIES, quantities);
                case "capacity" -> capacity = recalled(f, r, FieldReader.NODE_QUANTITIES, quantities);
                default -> in.skip();
            }
        }
        return in.canonical(new Kube.NodeStatus(allocatable, capacity));
    }
}
