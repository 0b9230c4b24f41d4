package dev.muster.core.plugins.topologyplacement;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.GroupContext;
import dev.muster.core.framework.GroupDomains;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PlacementGeneratePlugin.Candidate;
import dev.muster.core.framework.PodInfo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A preferred group that no single domain holds is given the fewest domains that together do, chosen as Kueue's
 * topology-aware scheduling does: largest first, and once one domain can hold the rest, the tightest such domain
 * (the one with the least room that still holds them) last.
 * <p>
 * A domain's room is counted in members, cheaply and conservatively: on each node, how many copies of the largest
 * request of every resource (the largest cpu of any member, the largest memory, ...) fit in what is free, summed over
 * the domain's nodes. The selection aims at every pending member, or at as many as the domains hold when that is
 * fewer but still enough for the group (minCount less bound members for a gang, one for a basic group). With
 * slices ({@code unit} members each), a domain's room and the target count whole slices only.
 */
final class FewestDomains {
    private FewestDomains() {
    }

    private record Room(String value, int[] nodes, long members) {
    }

    /** The candidate, or null when one domain (or none) would do, or no set of domains holds the group. */
    static Candidate candidate(GroupContext group, ClusterView cluster, String key, int[] parentNodes, int tier,
                               int unit) {
        List<PodInfo> pending = group.pending();
        if (pending.isEmpty()) {
            return null;
        }
        long[] largest = largest(pending, cluster);
        List<Room> rooms = new ArrayList<>();
        long total = 0;
        for (GroupDomains.Domain d : GroupDomains.domains(cluster, key, GroupDomains.Pin.NONE, parentNodes)) {
            long members = 0;
            for (int idx : d.nodes()) {
                members += room(cluster.anyNode(idx), largest);
            }
            members -= members % unit; // whole slices only
            if (members > 0) {
                rooms.add(new Room(d.value(), d.nodes(), members));
                total += members;
            }
        }
        int need = group.group().policy().isGang()
                ? Math.max(1, group.group().policy().minCount() - group.bound().size()) : 1;
        if (total < need) {
            return null;
        }
        long target = Math.min(pending.size() - pending.size() % unit, total);
        // Largest first (name order among equals); the last one the tightest that holds the rest.
        rooms.sort(Comparator.comparingLong(Room::members).reversed().thenComparing(Room::value));
        List<Room> chosen = new ArrayList<>();
        boolean[] taken = new boolean[rooms.size()];
        long remaining = target;
        while (remaining > 0) {
            int tightest = -1;
            for (int i = 0; i < rooms.size(); i++) {
                // Strictly less: among equal rooms the first, which has the smaller name.
                if (!taken[i] && rooms.get(i).members() >= remaining
                        && (tightest < 0 || rooms.get(i).members() < rooms.get(tightest).members())) {
                    tightest = i;
                }
            }
            int pick = tightest;
            if (pick < 0) {
                pick = 0;
                while (taken[pick]) {
                    pick++;
                }
            }
            taken[pick] = true;
            chosen.add(rooms.get(pick));
            remaining -= rooms.get(pick).members();
        }
        if (chosen.size() < 2) {
            return null; // one domain holds it: the domain's own candidate was tried already
        }
        chosen.sort(Comparator.comparing(Room::value));
        StringBuilder name = new StringBuilder(key).append('=');
        int count = 0;
        for (Room r : chosen) {
            count += r.nodes().length;
            name.append(r == chosen.get(0) ? "" : "+").append(r.value());
        }
        int[] nodes = new int[count];
        int k = 0;
        for (Room r : chosen) {
            System.arraycopy(r.nodes(), 0, nodes, k, r.nodes().length);
            k += r.nodes().length;
        }
        Arrays.sort(nodes);
        return new Candidate(name.toString(), nodes, tier);
    }

    /** The largest request of every resource among the members. */
    static long[] largest(List<PodInfo> pending, ClusterView cluster) {
        int resources = cluster.resources().size();
        long[] largest = new long[resources];
        for (PodInfo p : pending) {
            for (int r = 0; r < resources; r++) {
                largest[r] = Math.max(largest[r], p.request(r));
            }
        }
        return largest;
    }

    /** Copies of the largest member that fit in what the node has free (its pod slots included). */
    static long room(NodeInfo n, long[] largest) {
        long fit = Math.max(0, n.allowedPodNumber() - n.podCount());
        for (int r = 0; r < largest.length && fit > 0; r++) {
            if (largest[r] > 0) {
                fit = Math.min(fit, Math.max(0, n.allocatable(r) - n.requested(r)) / largest[r]);
            }
        }
        return fit;
    }
}
