package dev.muster.core.decision;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.testing.Groups;

import java.util.ArrayList;
import java.util.List;

import static dev.muster.core.testing.Groups.member;
import static dev.muster.core.testing.Nodes.node;
import static dev.muster.core.testing.Pods.pod;

public class QuickPerfMain {
    public static void main(String[] a) {
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            nodes.add(node(String.format("node-%05d", i)).label("kubernetes.io/hostname", "node-" + i)
                    .label("topology.kubernetes.io/rack", "rack-" + (i / 40))
                    .allocatable("cpu", "32").allocatable("memory", "128Gi").build());
        }
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < 50000; i++) {
            pods.add(pod("bound-" + i).requests("cpu", "500m").requests("memory", "1Gi").label("app", "a" + (i % 50))
                    .on(String.format("node-%05d", i % 5000)).build());
        }
        for (int i = 0; i < 1000; i++) {
            pods.add(member(pod("g-" + i).requests("cpu", "1").requests("memory", "2Gi").build(), "big"));
        }
        List<PodGroup> groups = List.of(Groups.gang("big", 1000).build());
        ClusterState s = new ClusterState(nodes, pods, groups, List.of(), List.of());
        DecisionEngine e = new DecisionEngine(EngineConfig.DEFAULT);
        for (int r = 0; r < 5; r++) {
            long t0 = System.nanoTime();
            new dev.muster.core.snapshot.ClusterSnapshot(s);
            System.out.println("snapshot " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        }
        for (int r = 0; r < 15; r++) {
            long t = System.nanoTime();
            DecisionResult res = e.decide(new DecisionRequest(s, null, DecisionOptions.DEFAULT));
            long ms = (System.nanoTime() - t) / 1_000_000;
            System.out.println("run " + r + ": " + ms + " ms, outcome " + res.decisions().get(0).outcome()
                    + " placed " + res.decisions().get(0).placements().size());
        }
    }
}
