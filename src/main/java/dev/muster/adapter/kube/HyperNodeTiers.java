package dev.muster.adapter.kube;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Volcano HyperNodes ({@code topology.volcano.sh/v1alpha1}) as node labels: a node that a HyperNode of tier
 * {@code N} holds, directly or through member HyperNodes, gets the label {@code volcano.sh/hypernode-tier-<N>} whose
 * value is that HyperNode's name. The engine then sees HyperNode tiers as ordinary topology levels, and a snapshot
 * may carry the same labels on its nodes instead of (or besides) HyperNode objects.
 *
 * <p>Members: {@code type: Node} selects nodes by exact name, by a regular expression found in the name (as Go's
 * {@code regexp.MatchString}: unanchored) or by a label selector; {@code type: HyperNode} selects HyperNodes by
 * exact name or regular expression (a pattern that matches the HyperNode's own name does not make it its own
 * member). A name no object of the snapshot has selects nothing.
 *
 * <p>What this reports instead of labelling ({@link Problem}): a cycle of HyperNodes, a node two HyperNodes of one
 * tier hold, a node whose own label of a tier names another HyperNode, and regular expressions that take more than
 * {@value #REGEX_BUDGET} character reads over the whole snapshot (a pathological pattern). Precondition: the
 * HyperNodes passed validation field by field (names, tiers, selectors, patterns that compile).
 */
public final class HyperNodeTiers {
    /** The node label of tier {@code N} is this prefix followed by {@code N}. */
    public static final String LABEL_PREFIX = "volcano.sh/hypernode-tier-";
    /** Character reads all regular expressions of one snapshot may take together. */
    static final long REGEX_BUDGET = 50_000_000L;
    private static final int MAX_PROBLEMS = 100;

    /**
     * What does not hold: on HyperNode {@code hyperNode} (its index in the list), at {@code field} under it
     * ({@code ".spec.members[2]"}), with the offending value.
     */
    public record Problem(int hyperNode, String field, String value, String message) {
    }

    /**
     * @param labels    the labels to add, by node name (only nodes some HyperNode holds)
     * @param maxTier   the widest tier of the snapshot: of its HyperNodes and of its nodes' own tier labels
     * @param tierNames {@code spec.tierName} to tier
     */
    public record Result(Map<String, Map<String, String>> labels, int maxTier, Map<String, Integer> tierNames,
                         List<Problem> problems) {
        public static final Result EMPTY = new Result(Map.of(), 0, Map.of(), List.of());
    }

    private HyperNodeTiers() {
    }

    /** The label key of tier {@code tier}. */
    public static String label(int tier) {
        return LABEL_PREFIX + tier;
    }

    /** The tier a node label key stands for, or 0 when it is not a tier label. */
    public static int tierOf(String key) {
        if (key == null || !key.startsWith(LABEL_PREFIX) || key.length() == LABEL_PREFIX.length()
                || key.length() > LABEL_PREFIX.length() + 9) {
            return 0;
        }
        int t = 0;
        for (int i = LABEL_PREFIX.length(); i < key.length(); i++) {
            char ch = key.charAt(i);
            if (ch < '0' || ch > '9') {
                return 0;
            }
            t = t * 10 + (ch - '0');
        }
        return t;
    }

    /** The tiers of {@code hyperNodes} over {@code nodes} (either may be null). */
    public static Result of(List<Kube.HyperNode> hyperNodes, List<Kube.Node> nodes) {
        List<Kube.Node> ns = nodes == null ? List.of() : nodes;
        int maxTier = 0;
        for (Kube.Node n : ns) {
            if (n != null && n.metadata() != null && n.metadata().labels() != null) {
                for (String k : n.metadata().labels().keySet()) {
                    maxTier = Math.max(maxTier, tierOf(k));
                }
            }
        }
        if (hyperNodes == null || hyperNodes.isEmpty()) {
            return new Result(Map.of(), maxTier, Map.of(), List.of());
        }
        return new Builder(hyperNodes, ns, maxTier).build();
    }

    /** One computation; not thread-safe. */
    private static final class Builder {
        private final List<Kube.HyperNode> hns;
        private final List<Kube.Node> nodes;
        private final Map<String, Integer> nodeIndex = new HashMap<>();
        private final Map<String, Integer> hnIndex = new HashMap<>();
        private final List<Problem> problems = new ArrayList<>();
        private final BitSet[] direct;
        /** Per HyperNode: {child HyperNode index, member index} pairs. */
        private final List<List<int[]>> children;
        private final Budget budget = new Budget();
        private int maxTier;

        Builder(List<Kube.HyperNode> hns, List<Kube.Node> nodes, int maxTier) {
            this.hns = hns;
            this.nodes = nodes;
            this.maxTier = maxTier;
            this.direct = new BitSet[hns.size()];
            this.children = new ArrayList<>(hns.size());
            for (int i = 0; i < nodes.size(); i++) {
                Kube.Node n = nodes.get(i);
                if (n != null && n.metadata() != null && n.metadata().name() != null) {
                    nodeIndex.putIfAbsent(n.metadata().name(), i);
                }
            }
            for (int i = 0; i < hns.size(); i++) {
                hnIndex.putIfAbsent(hns.get(i).metadata().name(), i);
            }
        }

        Result build() {
            Map<String, Integer> tierNames = new TreeMap<>();
            for (int h = 0; h < hns.size(); h++) {
                Kube.HyperNodeSpec spec = hns.get(h).spec();
                maxTier = Math.max(maxTier, spec.tier());
                if (spec.tierName() != null && !spec.tierName().isEmpty()) {
                    tierNames.putIfAbsent(spec.tierName(), spec.tier());
                }
                direct[h] = new BitSet(nodes.size());
                children.add(new ArrayList<>(2));
                try {
                    members(h, spec);
                } catch (Budget.Exhausted e) {
                    problem(new Problem(h, ".spec.members[" + e.member + "].selector.regexMatch.pattern", e.pattern, "regular expressions take more than "
                            + REGEX_BUDGET + " character reads over this snapshot's names; use exact names or "
                            + "simpler patterns"));
                    return new Result(Map.of(), maxTier, tierNames, problems);
                }
            }
            int[] order = order();
            if (order == null) {
                return new Result(Map.of(), maxTier, tierNames, problems);
            }
            return new Result(labels(order), maxTier, tierNames, problems);
        }

        private void members(int h, Kube.HyperNodeSpec spec) {
            if (spec.members() == null) {
                return;
            }
            String self = hns.get(h).metadata().name();
            for (int m = 0; m < spec.members().size(); m++) {
                Kube.HyperNodeMember member = spec.members().get(m);
                Kube.MemberSelector s = member.selector();
                boolean node = "Node".equals(member.type());
                if (s.exactMatch() != null) {
                    Integer at = (node ? nodeIndex : hnIndex).get(s.exactMatch().name());
                    if (at != null) {
                        add(h, m, node, at);
                    }
                } else if (s.regexMatch() != null) {
                    Pattern p = Pattern.compile(s.regexMatch().pattern());
                    budget.member = m;
                    budget.pattern = s.regexMatch().pattern();
                    if (node) {
                        for (int i = 0; i < nodes.size(); i++) {
                            Kube.Node n = nodes.get(i);
                            if (n != null && n.metadata() != null && n.metadata().name() != null
                                    && p.matcher(budget.of(n.metadata().name())).find()) {
                                direct[h].set(i);
                            }
                        }
                    } else {
                        for (int i = 0; i < hns.size(); i++) {
                            String name = hns.get(i).metadata().name();
                            if (!name.equals(self) && p.matcher(budget.of(name)).find()) {
                                children.get(h).add(new int[]{i, m});
                            }
                        }
                    }
                } else if (s.labelMatch() != null && node) {
                    dev.muster.core.model.LabelSelector selector = KubeMapper.labelSelector(s.labelMatch());
                    for (int i = 0; i < nodes.size(); i++) {
                        Kube.Node n = nodes.get(i);
                        if (n != null && n.metadata() != null && n.metadata().name() != null) {
                            Map<String, String> labels = n.metadata().labels() == null ? Map.of()
                                    : n.metadata().labels();
                            if (selector.matches(labels)) {
                                direct[h].set(i);
                            }
                        }
                    }
                }
            }
        }

        private void add(int h, int m, boolean node, int at) {
            if (node) {
                direct[h].set(at);
            } else {
                children.get(h).add(new int[]{at, m});
            }
        }

        /**
         * The HyperNodes in an order where every member HyperNode comes before the HyperNodes holding it (Kahn's
         * algorithm, no recursion); null, and one problem per cycle found, when member HyperNodes form a cycle.
         */
        private int[] order() {
            int n = hns.size();
            int[] holders = new int[n]; // how many HyperNodes hold each one, not yet ordered
            for (List<int[]> edges : children) {
                for (int[] e : edges) {
                    holders[e[0]]++;
                }
            }
            // Order leaves first: reverse the edges' direction by counting, per HyperNode, its unordered children.
            int[] pending = new int[n];
            List<List<Integer>> parents = new ArrayList<>(n);
            for (int h = 0; h < n; h++) {
                parents.add(new ArrayList<>(1));
            }
            for (int h = 0; h < n; h++) {
                for (int[] e : children.get(h)) {
                    pending[h]++;
                    parents.get(e[0]).add(h);
                }
            }
            int[] out = new int[n];
            int size = 0;
            java.util.ArrayDeque<Integer> ready = new java.util.ArrayDeque<>();
            for (int h = 0; h < n; h++) {
                if (pending[h] == 0) {
                    ready.add(h);
                }
            }
            while (!ready.isEmpty()) {
                int h = ready.poll();
                out[size++] = h;
                for (int parent : parents.get(h)) {
                    if (--pending[parent] == 0) {
                        ready.add(parent);
                    }
                }
            }
            if (size == n) {
                return out;
            }
            boolean[] reported = new boolean[n];
            for (int h = 0; h < n; h++) {
                if (pending[h] > 0 && !reported[h]) {
                    reportCycle(h, pending, reported);
                }
            }
            return null;
        }

        /** Walks from {@code start} through unordered children until a HyperNode repeats: that is a cycle. */
        private void reportCycle(int start, int[] pending, boolean[] reported) {
            Map<Integer, Integer> seenAt = new HashMap<>();
            List<int[]> walk = new ArrayList<>(); // {hyperNode, member index of the edge taken}
            int h = start;
            while (!seenAt.containsKey(h)) {
                seenAt.put(h, walk.size());
                int[] next = null;
                for (int[] e : children.get(h)) {
                    if (pending[e[0]] > 0) {
                        next = e;
                        break;
                    }
                }
                if (next == null) {
                    return; // cannot happen: an unordered HyperNode has an unordered child
                }
                walk.add(new int[]{h, next[1], next[0]});
                h = next[0];
            }
            int from = seenAt.get(h);
            for (int i = 0; i < from; i++) {
                reported[walk.get(i)[0]] = true; // the way into the cycle: not a cycle of its own
            }
            if (reported[h]) {
                return; // this cycle was reported from another start
            }
            StringBuilder cycle = new StringBuilder();
            for (int i = from; i < walk.size(); i++) {
                cycle.append(name(walk.get(i)[0])).append(" -> ");
                reported[walk.get(i)[0]] = true;
            }
            cycle.append(name(h));
            int[] last = walk.get(walk.size() - 1);
            problem(new Problem(last[0], ".spec.members[" + last[1] + "]", name(last[2]), "HyperNodes form a cycle (" + cycle
                    + "); a HyperNode may not hold itself through its members"));
        }

        private String name(int h) {
            return hns.get(h).metadata().name();
        }

        /**
         * The nodes each HyperNode holds, through its members, as tier labels; {@code order} has every member
         * HyperNode before its holders. Labels are given in list order, so conflicts are reported on the later
         * HyperNode.
         */
        private Map<String, Map<String, String>> labels(int[] order) {
            BitSet[] closure = new BitSet[hns.size()];
            for (int h : order) {
                BitSet all = (BitSet) direct[h].clone();
                for (int[] edge : children.get(h)) {
                    all.or(closure[edge[0]]);
                }
                closure[h] = all;
            }
            Map<String, Map<String, String>> out = new TreeMap<>();
            Map<String, Integer> holder = new HashMap<>();
            for (int h = 0; h < hns.size(); h++) {
                BitSet all = closure[h];
                int tier = hns.get(h).spec().tier();
                String key = label(tier);
                String value = name(h);
                for (int i = all.nextSetBit(0); i >= 0; i = all.nextSetBit(i + 1)) {
                    Kube.ObjectMeta m = nodes.get(i).metadata();
                    String nodeName = m.name();
                    String own = m.labels() == null ? null : m.labels().get(key);
                    if (own != null && !own.equals(value)) {
                        problem(new Problem(h, ".spec.members", nodeName, "node " + nodeName + " carries label " + key + "="
                                + own + ", but tier-" + tier + " HyperNode " + value + " holds it; a node's own "
                                + "tier labels and the HyperNodes must agree"));
                        continue;
                    }
                    Integer other = holder.putIfAbsent(nodeName + "\u0000" + tier, h);
                    if (other != null && other != h) {
                        problem(new Problem(h, ".spec.members", nodeName, "node " + nodeName + " is held by two HyperNodes of "
                                + "tier " + tier + " (" + name(other) + " and " + value + "); a node belongs to at "
                                + "most one HyperNode per tier"));
                        continue;
                    }
                    out.computeIfAbsent(nodeName, k -> new TreeMap<>()).put(key, value);
                }
            }
            return out;
        }

        private void problem(Problem p) {
            if (problems.size() < MAX_PROBLEMS) {
                problems.add(p);
            }
        }
    }

    /** Counts the characters regular expressions read, across one snapshot. */
    private static final class Budget {
        private long left = REGEX_BUDGET;
        private int member;
        private String pattern;

        static final class Exhausted extends RuntimeException {
            final int member;
            final String pattern;

            Exhausted(int member, String pattern) {
                super(null, null, false, false);
                this.member = member;
                this.pattern = pattern;
            }
        }

        CharSequence of(String s) {
            return new Counted(s);
        }

        private final class Counted implements CharSequence {
            private final String s;

            Counted(String s) {
                this.s = s;
            }

            @Override
            public int length() {
                return s.length();
            }

            @Override
            public char charAt(int index) {
                if (--left < 0) {
                    throw new Exhausted(member, pattern);
                }
                return s.charAt(index);
            }

            @Override
            public CharSequence subSequence(int start, int end) {
                return new Counted(s.substring(start, end));
            }

            @Override
            public String toString() {
                return s;
            }
        }
    }
}
