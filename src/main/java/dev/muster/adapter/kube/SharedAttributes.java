package dev.muster.adapter.kube;

import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.FrozenMap;

import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * One mapping's device attributes, compiled and shared: equal values are one object (a GPU's model and driver are its
 * peers'), equal maps one map (40,000 GPUs of a few models, without per-device attributes, are a few maps, which the
 * allocator then compares and hashes by reference).
 *
 * <p>What it costs is kept to what can pay: values are looked up by their one field (a string the decoder shares
 * within the request, whose hash is kept), not by the decoded record; a map holding a value new to the request cannot
 * equal an earlier map, so it is not looked up by content; and an attribute whose first {@value #UNIQUE_AFTER} values
 * were all new (a uuid, a serial number) is compiled without looking its values up at all. Each table holds at most
 * {@code max} entries, a bound on memory, not on correctness: past it, values are compiled each time.
 */
final class SharedAttributes {
    static final int UNIQUE_AFTER = 64;

    private final int max;
    private final Map<FrozenMap<String, DeviceAttribute>, FrozenMap<String, DeviceAttribute>> maps = new HashMap<>();
    private final Map<Long, DeviceAttribute> ints = new HashMap<>();
    private final Map<String, DeviceAttribute> strings = new HashMap<>();
    private final Map<String, DeviceAttribute> versions = new HashMap<>();
    private static final DeviceAttribute TRUE = new DeviceAttribute.BoolValue(true);
    private static final DeviceAttribute FALSE = new DeviceAttribute.BoolValue(false);
    private final Map<String, Name> names = new HashMap<>();
    /** The map being compiled: its entries so far, and whether a value was new or one of a kind. */
    private FrozenMap.Builder<String, DeviceAttribute> out;
    private boolean anyNew;
    private boolean anyUnique;
    private final BiConsumer<String, KubeDra.Attribute> add = this::add;

    /** Per attribute name: values looked up, and how many of them had been seen before. */
    private static final class Name {
        int looked;
        int repeats;

        boolean unique() {
            return repeats == 0 && looked >= UNIQUE_AFTER;
        }
    }

    SharedAttributes(int max) {
        this.max = max;
    }

    /** The compiled map of {@code in} (null or empty: the empty map). */
    FrozenMap<String, DeviceAttribute> of(Map<String, KubeDra.Attribute> in) {
        if (in == null || in.isEmpty()) {
            return FrozenMap.copyOf(null);
        }
        return compile(in);
    }

    private FrozenMap<String, DeviceAttribute> compile(Map<String, KubeDra.Attribute> in) {
        out = FrozenMap.builder(in.size());
        anyNew = false;
        anyUnique = false;
        in.forEach(add); // the map's own forEach: the decoder's maps make no entry objects for it
        FrozenMap<String, DeviceAttribute> map = out.buildHashed();
        out = null;
        if (anyUnique) {
            return map; // one of a kind
        }
        FrozenMap<String, DeviceAttribute> seen = anyNew ? null : maps.get(map);
        if (seen != null) {
            return seen;
        }
        if (maps.size() < max) {
            maps.put(map, map);
        }
        return map;
    }

    /** One entry of the map being compiled into {@link #out}. */
    private void add(String key, KubeDra.Attribute a) {
        Name name = names.get(key);
        if (name == null) {
            name = new Name();
            if (names.size() < max) {
                names.put(key, name);
            }
        }
        DeviceAttribute v;
        if (name.unique()) {
            v = DraMapper.attribute(a);
            anyUnique = true;
        } else {
            v = known(a);
            if (v == null) {
                v = DraMapper.attribute(a);
                anyNew = true;
                remember(a, v);
            } else {
                name.repeats++;
            }
            name.looked++;
        }
        out.putDistinct(key, v);
    }

    /** The value compiled before from an equal one, or null (as {@link DraMapper#attribute}: int, bool, string, version). */
    private DeviceAttribute known(KubeDra.Attribute a) {
        if (a.intValue() != null) {
            return ints.get(a.intValue());
        }
        if (a.boolValue() != null) {
            return a.boolValue() ? TRUE : FALSE;
        }
        return a.stringValue() != null ? strings.get(a.stringValue()) : versions.get(a.versionValue());
    }

    private void remember(KubeDra.Attribute a, DeviceAttribute v) {
        if (a.intValue() != null) {
            put(ints, a.intValue(), v);
        } else if (a.stringValue() != null) {
            put(strings, a.stringValue(), v);
        } else if (a.versionValue() != null) {
            put(versions, a.versionValue(), v);
        }
    }

    private <K> void put(Map<K, DeviceAttribute> table, K key, DeviceAttribute v) {
        if (table.size() < max) {
            table.put(key, v);
        }
    }
}
