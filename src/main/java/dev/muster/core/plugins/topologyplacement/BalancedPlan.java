package dev.muster.core.plugins.topologyplacement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kueue's balanced placement (KEP-2724, "TAS balanced placement") over the domains of one level: how many units
 * (members, or slices) each domain takes so that the group uses the fewest domains that hold it, spread as evenly as
 * their room allows.
 * <ol>
 *   <li>{@code k}: the fewest domains that hold {@code need} units, counted greedily, largest room first.</li>
 *   <li>The threshold {@code T = min(⌊need / k⌋, room of the k-th largest domain)}: the most every chosen domain can
 *       take alike.</li>
 *   <li>Domains with room below {@code T} are left out; of the rest, the {@code k} whose room together holds
 *       {@code need} with the least room in total (the tightest set; among equals the first in name order).</li>
 *   <li>Each chosen domain takes {@code T}; the {@code need − k·T} units left go to the chosen domains largest room
 *       first (then name), each up to its room.</li>
 * </ol>
 * For example 12 members over racks with room 10 and 10 take 6 and 6 where the greedy packing takes 10 and 2. The
 * search for the tightest set is bounded ({@link #SEARCH_LIMIT}): past it, the {@code k} largest domains are taken.
 *
 * @param quota     units per domain, in the order of the names given; 0 for a domain not chosen
 * @param threshold {@code T}
 * @param domains   {@code k}
 */
record BalancedPlan(long[] quota, long threshold, int domains) {
    /** Bound on the search for the tightest set (domains × k × remainders); beyond it the k largest are taken. */
    static final double SEARCH_LIMIT = 4_000_000d;

    /**
     * The plan for {@code need} units over domains with the given room (units each can take), names ascending; null
     * when they do not hold {@code need} together or {@code need} is not positive.
     */
    static BalancedPlan of(long[] room, long need) {
        int n = room.length;
        if (need <= 0) {
            return null;
        }
        Integer[] byRoom = new Integer[n];
        for (int i = 0; i < n; i++) {
            byRoom[i] = i;
        }
        Arrays.sort(byRoom, Comparator.<Integer>comparingLong(i -> -room[i]).thenComparingInt(i -> i));
        int k = 0;
        long sum = 0;
        while (sum < need && k < n && room[byRoom[k]] > 0) {
            sum += room[byRoom[k]];
            k++;
        }
        if (sum < need) {
            return null;
        }
        long threshold = Math.min(need / k, room[byRoom[k - 1]]);
        long maxRoom = room[byRoom[0]];
        List<Integer> chosen = (double) n * k * k * Math.min(maxRoom, need) <= SEARCH_LIMIT
                ? tightest(room, threshold, need, k) : null;
        if (chosen == null) {
            // Too many domains to search (or nothing found): the k largest, which hold need by construction.
            chosen = new ArrayList<>(Arrays.asList(byRoom).subList(0, k));
        }
        chosen.sort(Comparator.<Integer>comparingLong(i -> -room[i]).thenComparingInt(i -> i));
        long[] quota = new long[n];
        long extra = need - (long) k * threshold;
        for (int i : chosen) {
            long more = Math.min(room[i] - threshold, extra);
            quota[i] = threshold + more;
            extra -= more;
        }
        return extra > 0 ? null : new BalancedPlan(quota, threshold, k);
    }

    /**
     * The {@code k} domains with room at least {@code threshold} that hold {@code need} with the least room in total
     * (Kueue's search over the units left to place: for each count of domains, the first set found for each
     * remainder, domains in name order; then the remainder closest to zero from below).
     */
    private static List<Integer> tightest(long[] room, long threshold, long need, int k) {
        List<Map<Long, List<Integer>>> byCount = new ArrayList<>(k + 1);
        for (int j = 0; j <= k; j++) {
            byCount.add(new TreeMap<>());
        }
        byCount.get(0).put(need, List.of());
        for (int d = 0; d < room.length; d++) {
            if (room[d] < threshold || room[d] <= 0) {
                continue;
            }
            for (int j = k; j > 0; j--) {
                for (Map.Entry<Long, List<Integer>> e : List.copyOf(byCount.get(j - 1).entrySet())) {
                    if (e.getKey() <= 0) {
                        continue;
                    }
                    long left = e.getKey() - room[d];
                    if (!byCount.get(j).containsKey(left)) {
                        List<Integer> set = new ArrayList<>(e.getValue());
                        set.add(d);
                        byCount.get(j).put(left, set);
                    }
                }
            }
        }
        List<Integer> best = null;
        long bestLeft = Long.MIN_VALUE;
        for (Map.Entry<Long, List<Integer>> e : byCount.get(k).entrySet()) {
            if (e.getKey() <= 0 && e.getKey() > bestLeft) {
                bestLeft = e.getKey();
                best = e.getValue();
            }
        }
        return best == null ? null : new ArrayList<>(best);
    }
}
