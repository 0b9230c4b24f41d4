package dev.muster.bench;

import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionOptions;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.snapshot.ClusterSnapshot;
import dev.muster.core.testing.Groups;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;

/**
 * Engine time for a Deployment's identical replicas decided as plain pods, next to the same pods as one basic group:
 * {@code PlainPodScale [pods] [nodes] [rounds]} (10,000 pods on 5,000 nodes by default). Equal consecutive plain pods
 * share the run's scheduler, so each one after the first re-evaluates only the node the previous one took.
 */
public final class PlainPodScale {
    public static void main(String[] args) {
        int pods = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int nodes = args.length > 1 ? Integer.parseInt(args[1]) : 5_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);
        for (boolean grouped : new boolean[] {false, true}) {
            ClusterSnapshot compiled = DecisionEngine.compile(request(pods, nodes, grouped));
            long[] ns = new long[rounds];
            DecisionResult r = null;
            for (int i = 0; i < rounds; i++) {
                long t = System.nanoTime();
                r = engine.decide(compiled, null, null, DecisionOptions.DEFAULT, () -> false);
                ns[i] = System.nanoTime() - t;
            }
            Map<String, Integer> outcomes = new TreeMap<>();
            int placed = 0;
            for (Decision d : r.decisions()) {
                outcomes.merge(d.outcome().name(), 1, Integer::sum);
                placed += d.placements().size();
            }
            Arrays.sort(ns);
            System.out.printf(Locale.ROOT, "%s: %,d pods on %,d nodes: engine median %d ms, min %d ms "
                            + "(%d rounds); %s, %,d placed%n", grouped ? "one basic group" : "plain pods", pods, nodes,
                    ns[rounds / 2] / 1_000_000, ns[0] / 1_000_000, rounds, outcomes, placed);
        }
    }

    static DecisionRequest request(int podCount, int nodeCount, boolean grouped) {
        List<Node> nodes = new ArrayList<>(nodeCount);
        for (int i = 0; i < nodeCount; i++) {
            String name = String.format(Locale.ROOT, "node-%05d", i);
            nodes.add(node(name).label("kubernetes.io/hostname", name).allocatable("cpu", "32")
                    .allocatable("memory", "128Gi").allocatable("pods", "110").build());
        }
        List<Pod> pods = new ArrayList<>(podCount);
        for (int i = 0; i < podCount; i++) {
            Pod p = pod(String.format(Locale.ROOT, "web-%05d", i)).namespace("shop").label("app", "web")
                    .requests("cpu", "500m").requests("memory", "1Gi").build();
            pods.add(grouped ? member(p, "web") : p);
        }
        List<PodGroup> groups = grouped ? List.of(Groups.basic("web").namespace("shop").build()) : List.of();
        return new DecisionRequest(new ClusterState(nodes, pods, groups, List.of(), List.of()), null,
                DecisionOptions.DEFAULT);
    }
}
