package dev.muster.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * PodGroup annotation {@value #ANNOTATION}: the group's members are placed in slices, each slice inside one domain
 * of a topology level (Kueue's {@code podset-slice-required-topology} with {@code podset-slice-size}, and its
 * multi-layer form). Outermost layer first; each inner layer splits every slice of the layer above it into slices of
 * its own size, each inside one domain of its own level.
 * <p>
 * Grammar: {@code <label key>=<size>[,<label key>=<size>...]}, e.g. {@code example.com/block=8,
 * topology.kubernetes.io/rack=4}: at most {@value #MAX_LAYERS} layers, each label key named once, each size a decimal
 * integer of at least 1 that the size of the layer above it is a multiple of. Spaces around the parts are ignored.
 * The label keys' syntax is the validator's (they are label keys like any other).
 */
public record SliceSpec(List<Layer> layers) {
    public static final String ANNOTATION = TopologyAnnotations.SLICES;
    /** Kueue's limit on slice layers. */
    public static final int MAX_LAYERS = 3;

    /** One layer: slices of {@code size} members, each inside one domain of the node label {@code key}. */
    public record Layer(String key, int size) {
    }

    /** Why a value does not follow the grammar; the message names the rule. */
    public static final class Invalid extends IllegalArgumentException {
        Invalid(String message) {
            super(message);
        }
    }

    public SliceSpec {
        layers = List.copyOf(layers);
    }

    /** The outermost layer's slice size: the group's member count and minCount are multiples of it. */
    public int outerSize() {
        return layers.get(0).size();
    }

    /** The annotation of {@code annotations}, parsed; null when absent. */
    public static SliceSpec of(Map<String, String> annotations) {
        String v = annotations == null ? null : annotations.get(ANNOTATION);
        return v == null ? null : parse(v);
    }

    /** @throws Invalid when {@code value} does not follow the grammar */
    public static SliceSpec parse(String value) {
        if (value.isBlank()) {
            throw new Invalid("must name at least one level: `<label key>=<size>[,<inner label key>=<size>]`");
        }
        String[] entries = value.split(",", -1);
        if (entries.length > MAX_LAYERS) {
            throw new Invalid("must have at most " + MAX_LAYERS + " levels, got " + entries.length);
        }
        List<Layer> out = new ArrayList<>(entries.length);
        for (String entry : entries) {
            int eq = entry.indexOf('=');
            if (eq < 0) {
                throw new Invalid("entry \"" + entry.trim() + "\" must be `<label key>=<size>`");
            }
            String key = entry.substring(0, eq).trim();
            if (key.isEmpty()) {
                throw new Invalid("entry \"" + entry.trim() + "\" must name a level: `<label key>=<size>`");
            }
            int size = size(key, entry.substring(eq + 1).trim());
            for (Layer l : out) {
                if (l.key().equals(key)) {
                    throw new Invalid("level \"" + key + "\" is named twice");
                }
            }
            if (!out.isEmpty() && out.get(out.size() - 1).size() % size != 0) {
                Layer outer = out.get(out.size() - 1);
                throw new Invalid("the slice size " + size + " of \"" + key + "\" must divide the slice size "
                        + outer.size() + " of \"" + outer.key() + "\"");
            }
            out.add(new Layer(key, size));
        }
        return new SliceSpec(out);
    }

    private static int size(String key, String n) {
        String rule = "the slice size of \"" + key + "\" must be an integer of at least 1, got \"" + n + "\"";
        if (n.isEmpty() || n.length() > 10) {
            throw new Invalid(rule);
        }
        long v = 0;
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            if (c < '0' || c > '9') {
                throw new Invalid(rule);
            }
            v = v * 10 + (c - '0');
        }
        if (v < 1) {
            throw new Invalid("the slice size of \"" + key + "\" must be greater than or equal to 1");
        }
        if (v > Integer.MAX_VALUE) {
            throw new Invalid("the slice size of \"" + key + "\" must be less than or equal to " + Integer.MAX_VALUE);
        }
        return (int) v;
    }
}
