package dev.muster.core.dra;

import dev.muster.core.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Consumable capacity arithmetic, exact ({@link BigDecimal}). A request names capacities with or without the
 * driver's domain; a device publishes them either way too. Both sides are resolved to fully qualified names
 * ({@code domain/id}), a device entry spelled with the driver's domain winning over an unqualified one.
 */
final class Capacities {
    private Capacities() {
    }

    /** Thrown for a request that cannot be evaluated at all (aborts the allocation, it is not a device mismatch). */
    static final class CapacityError extends RuntimeException {
        CapacityError(String message) {
            super(message, null, false, false);
        }
    }

    /** A device capacity under its fully qualified name, with the key the device spells it with. */
    record Resolved(String key, Device.Capacity capacity, BigDecimal value) {
    }

    static String qualify(String name, String driver) {
        return name.indexOf('/') >= 0 ? name : driver + "/" + name;
    }

    static Map<String, Resolved> resolveDevice(Device d, String driver) {
        Map<String, Resolved> out = new LinkedHashMap<>();
        String prefix = driver + "/";
        d.capacity().forEach((k, c) -> {
            if (k.startsWith(prefix)) {
                out.put(k, new Resolved(k, c, Quantity.exact(c.value())));
            }
        });
        d.capacity().forEach((k, c) -> {
            if (!k.startsWith(prefix)) {
                out.putIfAbsent(qualify(k, driver), new Resolved(k, c, Quantity.exact(c.value())));
            }
        });
        return out;
    }

    /**
     * What a request ({@code requests}: capacity name → amount) would consume of the device (capacity key as the
     * device spells it → amount), or null when the device lacks a requested capacity, the policy forbids the amount or
     * too little is left beside what {@code state} holds and what the search took already ({@code taken}).
     *
     * @throws CapacityError when an amount comes out negative, or the request names one capacity twice
     */
    static Map<String, BigDecimal> fit(Map<String, String> requests, PoolDevice pd, Map<String, Resolved> caps,
                                       DeviceLedger.State state, Map<String, BigDecimal> taken) {
        Map<String, BigDecimal> requested = resolveRequests(requests, pd.device(), pd.id().driver());
        if (requested == null) {
            return null;
        }
        Map<String, BigDecimal> consumed = new LinkedHashMap<>();
        for (Map.Entry<String, Resolved> e : caps.entrySet()) {
            BigDecimal amount = consumed(requested.get(e.getKey()), e.getValue());
            if (amount.signum() < 0) {
                throw new CapacityError("capacity \"" + e.getKey() + "\": capacity value is negative");
            }
            consumed.put(e.getKey(), amount);
        }
        for (Map.Entry<String, Resolved> e : caps.entrySet()) {
            BigDecimal amount = consumed.get(e.getKey());
            if (violatesPolicy(amount, e.getValue().capacity().requestPolicy())) {
                return null;
            }
            BigDecimal total = amount.add(state.consumedCapacity(pd.id(), e.getKey()))
                    .add(taken.getOrDefault(e.getKey(), BigDecimal.ZERO));
            if (total.compareTo(e.getValue().value()) > 0) {
                return null;
            }
        }
        return consumed;
    }

    /**
     * {@link #fit} for a request that names no capacity, on a device of which no share consumes anything (in the
     * ledger or in the search): then the answer depends on the device alone, so it is worked out once per device and
     * kept on it. Searches ask it for every candidate device they look at, most of them for claims without capacity
     * requests.
     *
     * @throws CapacityError as {@link #fit} (not kept: asked again, it throws again)
     */
    static boolean admitsUnrequested(PoolDevice pd, Map<String, Resolved> caps, DeviceLedger.State state) {
        byte known = pd.unrequested;
        if (known == 0) {
            known = fit(Map.of(), pd, caps, state, Map.of()) != null ? (byte) 1 : (byte) 2;
            pd.unrequested = known;
        }
        return known == 1;
    }

    /**
     * The request's amounts under fully qualified names, or null when the device lacks one of them (a mismatch).
     *
     * @throws CapacityError when the request names one capacity twice (with and without the driver's domain)
     */
    static Map<String, BigDecimal> resolveRequests(Map<String, String> requests, Device d, String driver) {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : requests.entrySet()) {
            String name = e.getKey();
            String key = resolveName(name, d, driver);
            if (key == null) {
                return null;
            }
            if (out.put(key, Quantity.exact(e.getValue())) != null) {
                throw new CapacityError("capacity \"" + key + "\" requested twice, with and without its domain");
            }
        }
        return out;
    }

    private static String resolveName(String name, Device d, String driver) {
        if (d.capacity().containsKey(name)) {
            return qualify(name, driver);
        }
        int slash = name.indexOf('/');
        if (slash >= 0) {
            if (!name.substring(0, slash).equals(driver)) {
                return null;
            }
            return d.capacity().containsKey(name.substring(slash + 1)) ? name : null;
        }
        return d.capacity().containsKey(driver + "/" + name) ? driver + "/" + name : null;
    }

    /**
     * What one allocation consumes of a capacity: nothing requested → the policy default, else the whole value;
     * requested → rounded up by the policy (to {@code min}, then to {@code min + k·step}; or to the first valid
     * value at or above it).
     */
    static BigDecimal consumed(BigDecimal requested, Resolved cap) {
        Device.RequestPolicy p = cap.capacity().requestPolicy();
        if (requested == null) {
            return p != null && p.defaultValue() != null ? Quantity.exact(p.defaultValue()) : cap.value();
        }
        if (p == null) {
            return requested;
        }
        if (p.validRange() != null) {
            BigDecimal min = Quantity.exact(p.validRange().min());
            if (requested.compareTo(min) < 0) {
                return min;
            }
            if (p.validRange().step() == null) {
                return requested;
            }
            BigDecimal step = Quantity.exact(p.validRange().step());
            BigDecimal n = requested.subtract(min).divide(step, 0, RoundingMode.CEILING);
            return min.add(step.multiply(n));
        }
        for (String v : p.validValues()) {
            BigDecimal value = Quantity.exact(v);
            if (requested.compareTo(value) <= 0) {
                return value;
            }
        }
        return requested;
    }

    /** Whether a consumed amount breaks the capacity's request policy. */
    static boolean violatesPolicy(BigDecimal consumed, Device.RequestPolicy p) {
        if (p == null) {
            return false;
        }
        if (p.defaultValue() != null && consumed.compareTo(Quantity.exact(p.defaultValue())) == 0) {
            return false;
        }
        if (p.validRange() != null) {
            Device.ValidRange r = p.validRange();
            if (r.max() != null && consumed.compareTo(Quantity.exact(r.max())) > 0) {
                return true;
            }
            if (r.step() != null) {
                BigDecimal rem = consumed.subtract(Quantity.exact(r.min())).remainder(Quantity.exact(r.step()));
                return rem.signum() != 0;
            }
            return false;
        }
        if (!p.validValues().isEmpty()) {
            for (String v : p.validValues()) {
                if (consumed.compareTo(Quantity.exact(v)) == 0) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * A quantity's text for an exact value: an integer as its digits, else the largest of {@code m}, {@code u},
     * {@code n} that represents it exactly, else plain decimal. Value-equal to upstream's rendering, not always
     * spelled the same (upstream keeps the step's format).
     */
    static String render(BigDecimal v) {
        BigDecimal s = v.stripTrailingZeros();
        if (s.scale() <= 0) {
            return s.toBigIntegerExact().toString();
        }
        String[] suffixes = {"m", "u", "n"};
        for (int i = 0; i < suffixes.length; i++) {
            BigDecimal scaled = s.scaleByPowerOfTen(3 * (i + 1)).stripTrailingZeros();
            if (scaled.scale() <= 0) {
                return scaled.toBigIntegerExact() + suffixes[i];
            }
        }
        return s.toPlainString();
    }
}
