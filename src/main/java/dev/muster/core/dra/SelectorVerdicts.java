package dev.muster.core.dra;

import dev.muster.core.model.Quantity;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Device selectors' verdicts on an index's devices, memoised: selectors are pure, so a verdict is kept per selector
 * and what the selector sees of a device. A selector that says what it reads ({@link DeviceSelector#reads}) is kept
 * per the values it reads (devices often differ only in attributes nobody selects by, such as a UUID); any other per
 * the device's whole look (driver, attribute and capacity maps). Thread-safe.
 */
final class SelectorVerdicts {
    private final Map<SelectorKey, Object> selectorResults = new ConcurrentHashMap<>();
    /** A number per distinct look; devices with one number give every selector the same verdict. */
    private final Map<Look, Integer> lookIds = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger nextLookId = new java.util.concurrent.atomic.AtomicInteger();
    private final Map<Look, SelectorDevice> selectorDevices = new ConcurrentHashMap<>();

    /** A selector and what it sees of a device, by number: devices that look alike to selectors share verdicts. */
    private record SelectorKey(DeviceSelector selector, int device) {
    }

    /**
     * Everything a selector sees of a device. Devices that look alike usually share their attribute and capacity maps
     * ({@link FrozenMap}, shared by the request mapping), so this key hashes and compares by reference.
     */
    private record Look(String driver, Map<String, DeviceAttribute> attributes, Map<String, Device.Capacity> capacity,
                        boolean allowMultipleAllocations) {
        static Look of(PoolDevice d) {
            Device device = d.device();
            return new Look(d.id().driver(), device.attributes(), device.capacity(), device.allowMultipleAllocations());
        }
    }

    /**
     * Whether the selector selects the device, memoised per (selector, what the selector sees of the device):
     * selectors are pure, and the 8 GPUs of 5,000 identical nodes are 8 evaluations, not 40,000. The device itself
     * keeps the verdicts of the few selectors asked about it, so a device tried again on the next member is a look-up
     * on the device.
     *
     * @throws SelectorException as the selector threw it (also memoised)
     */
    boolean selects(DeviceSelector selector, PoolDevice d) {
        PoolDevice.Known known = d.known;
        Object verdict = known == null ? null : known.get(selector);
        if (verdict == null) {
            verdict = verdict(selector, d);
            d.known = (known == null ? new PoolDevice.Known(new DeviceSelector[0], new Object[0]) : known)
                    .with(selector, verdict);
        }
        if (verdict instanceof SelectorException e) {
            throw e;
        }
        return (Boolean) verdict;
    }

    /**
     * The selector's verdict on the device (a Boolean, or the SelectorException it threw), kept per the values it
     * reads when it says what it reads, else per the device's whole look.
     */
    private Object verdict(DeviceSelector selector, PoolDevice d) {
        SelectorReads reads = selector.reads();
        if (reads != null) {
            return remembered(projectedResults, projection(selector, reads, d), selector, d);
        }
        int id = d.selectorId;
        if (id < 0) {
            id = lookIds.computeIfAbsent(Look.of(d), k -> nextLookId.getAndIncrement());
            d.selectorId = id;
        }
        return remembered(selectorResults, new SelectorKey(selector, id), selector, d);
    }

    /** The verdict kept under {@code key}, evaluated on the device the first time. */
    private <K> Object remembered(Map<K, Object> kept, K key, DeviceSelector selector, PoolDevice d) {
        Object cached = kept.get(key);
        if (cached == null) {
            try {
                cached = selector.matches(selectorDevice(d));
            } catch (SelectorException e) {
                cached = e;
            } catch (RuntimeException e) {
                cached = new SelectorException(String.valueOf(e.getMessage()), e);
            }
            kept.put(key, cached);
        }
        return cached;
    }

    /** Verdicts of selectors that say what they read, per selector and what it reads of a device. */
    private final Map<Projection, Object> projectedResults = new ConcurrentHashMap<>();

    /** A selector and the values it reads of a device (null where the device has no such attribute or capacity). */
    private record Projection(DeviceSelector selector, String driver, boolean multi, List<Object> values) {
    }

    /** What the selector reads of the device, with the selector and the device's driver. */
    private static Projection projection(DeviceSelector selector, SelectorReads reads, PoolDevice d) {
        Device device = d.device();
        String driver = d.id().driver();
        Object[] values = new Object[reads.attributes().size() + reads.capacities().size()];
        int i = 0;
        for (SelectorReads.Name n : reads.attributes()) {
            values[i++] = published(device.attributes(), n, driver);
        }
        for (SelectorReads.Name n : reads.capacities()) {
            Device.Capacity c = published(device.capacity(), n, driver);
            values[i++] = c == null ? null : c.value();
        }
        return new Projection(selector, driver, device.allowMultipleAllocations(), java.util.Arrays.asList(values));
    }

    /** The value a device publishes under a name, as selectors see it: qualified first, else unqualified under its driver. */
    private static <V> V published(Map<String, V> named, SelectorReads.Name n, String driver) {
        V v = named.get(n.qualified());
        return v != null || !n.domain().equals(driver) ? v : named.get(n.id());
    }

    /** What selectors see of a device: names without a domain are filed under the driver. Built once per look. */
    SelectorDevice selectorDevice(PoolDevice d) {
        return selectorDevices.computeIfAbsent(Look.of(d), look -> {
            String driver = look.driver();
            Map<String, Map<String, DeviceAttribute>> attrs = byDomain(look.attributes(), driver, v -> v);
            Map<String, Map<String, BigDecimal>> caps = byDomain(look.capacity(), driver,
                    c -> Quantity.exact(c.value()));
            attrs.replaceAll((x, m) -> Collections.unmodifiableMap(m));
            caps.replaceAll((x, m) -> Collections.unmodifiableMap(m));
            return new SelectorDevice(driver, Collections.unmodifiableMap(attrs), Collections.unmodifiableMap(caps),
                    look.allowMultipleAllocations());
        });
    }

    /** Files qualified names by domain (unprefixed = the driver's); an explicitly qualified name wins a clash. */
    private static <V, T> Map<String, Map<String, T>> byDomain(Map<String, V> named, String driver,
                                                              java.util.function.Function<V, T> value) {
        Map<String, Map<String, T>> out = new HashMap<>();
        named.forEach((name, v) -> {
            int slash = name.indexOf('/');
            String domain = slash < 0 ? driver : name.substring(0, slash);
            String id = slash < 0 ? name : name.substring(slash + 1);
            Map<String, T> m = out.computeIfAbsent(domain, x -> new HashMap<>());
            if (slash >= 0 || !m.containsKey(id)) {
                m.put(id, value.apply(v));
            }
        });
        return out;
    }
}
