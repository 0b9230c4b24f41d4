package dev.muster.core.dra;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Claim constraints, checked as devices are added. Both kinds are monotonic (once a device is refused, adding more
 * devices never makes it acceptable), which lets the search prune at the first refusal. Every successful
 * {@link Constraint#add} is undone by exactly one {@link Constraint#remove} with the same arguments, in LIFO order.
 */
final class Constraints {
    private Constraints() {
    }

    abstract static class Constraint {
        private final Set<String> requests;
        final String attribute;

        Constraint(List<String> requests, String attribute) {
            this.requests = Set.copyOf(requests);
            this.attribute = attribute;
        }

        /** Whether the constraint covers the request (or the subrequest, named either way). */
        final boolean covers(String request, String sub) {
            if (requests.isEmpty()) {
                return true;
            }
            return requests.contains(request) || sub != null && requests.contains(request + "/" + sub);
        }

        /** Whether the device may join; if so it is counted in. Uncovered requests always pass. */
        final boolean add(String request, String sub, PoolDevice d) {
            if (!covers(request, sub)) {
                return true;
            }
            DeviceAttribute a = lookup(d, attribute);
            return a != null && accept(a);
        }

        /** Takes back the latest accepted device of a covered request. */
        final void remove(String request, String sub, PoolDevice d) {
            if (covers(request, sub)) {
                forgetLast();
            }
        }

        abstract boolean accept(DeviceAttribute a);

        abstract void forgetLast();
    }

    static Constraint of(ResourceClaimSpec.Constraint c) {
        return c.matchAttribute() != null ? new Match(c.requests(), c.matchAttribute())
                : new Distinct(c.requests(), c.distinctAttribute());
    }

    /**
     * A device's attribute under a fully qualified name: the exact key, else (when the domain is the driver's) the
     * unqualified identifier. Null when the device lacks it.
     */
    static DeviceAttribute lookup(PoolDevice d, String qualified) {
        DeviceAttribute a = d.device().attributes().get(qualified);
        if (a != null) {
            return a;
        }
        int slash = qualified.indexOf('/');
        if (slash < 0 || !qualified.substring(0, slash).equals(d.id().driver())) {
            return null;
        }
        return d.device().attributes().get(qualified.substring(slash + 1));
    }

    /** matchAttribute: every covered device has the attribute, all with the same type and value. */
    static final class Match extends Constraint {
        private DeviceAttribute value;
        private int count;

        Match(List<String> requests, String attribute) {
            super(requests, attribute);
        }

        @Override
        boolean accept(DeviceAttribute a) {
            if (count == 0) {
                value = a;
            } else if (!a.equals(value)) {
                return false;
            }
            count++;
            return true;
        }

        @Override
        void forgetLast() {
            count--;
        }
    }

    /** distinctAttribute: every covered device has the attribute, pairwise different (type or value). */
    static final class Distinct extends Constraint {
        private final List<DeviceAttribute> values = new ArrayList<>();

        Distinct(List<String> requests, String attribute) {
            super(requests, attribute);
        }

        @Override
        boolean accept(DeviceAttribute a) {
            if (values.contains(a)) {
                return false;
            }
            values.add(a);
            return true;
        }

        @Override
        void forgetLast() {
            values.remove(values.size() - 1);
        }
    }
}
