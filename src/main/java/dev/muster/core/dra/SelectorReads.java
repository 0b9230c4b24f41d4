package dev.muster.core.dra;

import java.util.List;
import java.util.Objects;

/**
 * What a device selector reads of a device beyond its driver and {@code allowMultipleAllocations}: attributes and
 * capacities by domain and identifier. Two devices of one driver that agree on these give the selector the same
 * answer, so its verdict can be kept per such projection instead of per device (devices often differ only in
 * attributes no selector reads, such as a UUID).
 *
 * @param attributes the attributes read, as {@code domain}/{@code identifier}
 * @param capacities the capacities read, likewise
 */
public record SelectorReads(List<Name> attributes, List<Name> capacities) {
    public SelectorReads {
        attributes = List.copyOf(attributes);
        capacities = List.copyOf(capacities);
    }

    /** A qualified attribute or capacity name. */
    public record Name(String domain, String id) {
        public Name {
            Objects.requireNonNull(domain, "domain");
            Objects.requireNonNull(id, "id");
        }

        /** The name as a device may publish it qualified. */
        String qualified() {
            return domain + "/" + id;
        }
    }
}
