package dev.muster.adapter.kube;

import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.dra.DeviceAttribute;
import dev.muster.core.dra.FrozenMap;

import java.util.Arrays;
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
 *
 * <p>Two look-ups are skipped where the byte path makes that safe by identity: a slice's devices list their
 * attributes in one order under names the decoder shares, so an entry's name is found by its position in the previous
 * map; and a value whose bytes repeat is one decoded object, so an attribute whose value is the very object its last
 * value was gets the compiled value of that one.
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
    /**
     * The map being compiled: its entries so far (keys and values alternating, {@link #count} of them), and whether a
     * value was new or one of a kind. The array is reused from map to map: a map equal to the last one compiled (the
     * next GPU of a model) is that map, and nothing is built for it.
     */
    private Object[] entries = new Object[16];
    private int count;
    /** The last map compiled, and its entries as {@link #entries} held them. */
    private FrozenMap<String, DeviceAttribute> last;
    private Object[] lastEntries = new Object[16];
    private int lastCount = -1;
    private boolean anyNew;
    private boolean anyUnique;
    private final BiConsumer<String, KubeDra.Attribute> add = this::add;
    /** The previous map's keys and their names, by position; {@link #position} is the entry being added. */
    private String[] lastKeys = new String[8];
    private Name[] lastNames = new Name[8];
    private int position;

    /** The attributes kept, fully qualified ({@code domain/name}), or null for all: see {@link #keepOnly}. */
    private java.util.Set<String> read;
    /** Per driver, the keys its devices may publish those attributes under; the current device's driver's. */
    private final Map<String, java.util.Set<String>> keysByDriver = new HashMap<>();
    private java.util.Set<String> keys;

    /**
     * Per attribute name: values looked up, how many of them had been seen before, and the last one compiled; and
     * whether it is one of the keys it was last asked about.
     */
    private static final class Name {
        int looked;
        int repeats;
        KubeDra.Attribute lastRaw;
        DeviceAttribute lastValue;
        java.util.Set<String> keptIn;
        boolean kept;

        boolean unique() {
            return repeats == 0 && looked >= UNIQUE_AFTER;
        }

        boolean kept(String key, java.util.Set<String> keys) {
            if (keptIn != keys) {
                kept = keys.contains(key);
                keptIn = keys;
            }
            return kept;
        }
    }

    SharedAttributes(int max) {
        this.max = max;
    }

    /**
     * From now on, maps keep only the attributes named in {@code qualified} ({@code domain/name}; a device's bare name
     * is in its driver's domain): what the selectors and constraints of a request read. Null keeps every attribute.
     */
    SharedAttributes keepOnly(java.util.Set<String> qualified) {
        this.read = qualified;
        return this;
    }

    /** The compiled map of {@code in} (null or empty: the empty map), every attribute kept. */
    FrozenMap<String, DeviceAttribute> of(Map<String, KubeDra.Attribute> in) {
        return of(in, null);
    }

    /**
     * The compiled map of the attributes of a device of {@code driver} (null or empty: the empty map), those that
     * {@link #keepOnly} leaves out dropped.
     */
    FrozenMap<String, DeviceAttribute> of(Map<String, KubeDra.Attribute> in, String driver) {
        if (in == null || in.isEmpty()) {
            return FrozenMap.copyOf(null);
        }
        if (read != null) {
            String d = driver == null ? "" : driver;
            keys = keysByDriver.get(d);
            if (keys == null) {
                keys = ClaimCatalog.keys(read, d);
                keysByDriver.put(d, keys);
            }
        }
        return compile(in);
    }

    private FrozenMap<String, DeviceAttribute> compile(Map<String, KubeDra.Attribute> in) {
        count = 0;
        anyNew = false;
        anyUnique = false;
        position = 0;
        in.forEach(add); // the map's own forEach: the decoder's maps make no entry objects for it
        if (count == 0) {
            return FrozenMap.copyOf(null);
        }
        if (count == lastCount && java.util.Arrays.equals(entries, 0, count, lastEntries, 0, count)) {
            return last; // the same names and equal values, in order: the previous device's map
        }
        FrozenMap<String, DeviceAttribute> map = build();
        Object[] swap = lastEntries;
        lastEntries = entries;
        entries = swap.length >= lastEntries.length ? swap : new Object[lastEntries.length];
        lastCount = count;
        last = map;
        return map;
    }

    /** The map of {@link #entries}: one of a kind, found by content, or new and kept. */
    @SuppressWarnings("unchecked")
    private FrozenMap<String, DeviceAttribute> build() {
        FrozenMap.Builder<String, DeviceAttribute> out = FrozenMap.builder(count / 2);
        for (int i = 0; i < count; i += 2) {
            out.putDistinct((String) entries[i], (DeviceAttribute) entries[i + 1]);
        }
        // a map with a one-of-a-kind value is neither looked up nor, as a rule, hashed later (device lists compare
        // the attributes selectors read): its hash waits for whoever asks
        FrozenMap<String, DeviceAttribute> map = anyUnique ? out.build() : out.buildHashed();
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

    /** One entry of the map being compiled into {@link #entries}. */
    private void add(String key, KubeDra.Attribute a) {
        Name name = name(key);
        if (read != null && !name.kept(key, keys)) {
            return; // no selector or constraint of the request reads it
        }
        DeviceAttribute v;
        if (name.unique()) {
            v = DraMapper.attribute(a);
            anyUnique = true;
        } else {
            v = a == name.lastRaw ? name.lastValue : known(a);
            if (v == null) {
                v = DraMapper.attribute(a);
                anyNew = true;
                remember(a, v);
            } else {
                name.repeats++;
            }
            name.looked++;
            name.lastRaw = a;
            name.lastValue = v;
        }
        if (count + 2 > entries.length) {
            entries = Arrays.copyOf(entries, 2 * entries.length);
        }
        entries[count++] = key;
        entries[count++] = v;
    }

    /** The entry's name: the one at its position in the previous map when the key is that very string, else looked up. */
    private Name name(String key) {
        int at = position++;
        if (at < lastKeys.length && lastKeys[at] == key) {
            return lastNames[at];
        }
        Name name = names.get(key);
        if (name == null) {
            name = new Name();
            if (names.size() < max) {
                names.put(key, name);
            }
        }
        if (at >= lastKeys.length) {
            lastKeys = Arrays.copyOf(lastKeys, Math.max(at + 1, lastKeys.length * 2));
            lastNames = Arrays.copyOf(lastNames, lastKeys.length);
        }
        lastKeys[at] = key;
        lastNames[at] = name;
        return name;
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
