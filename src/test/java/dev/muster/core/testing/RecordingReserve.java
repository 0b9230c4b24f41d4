package dev.muster.core.testing;

import dev.muster.core.framework.ClusterView;
import dev.muster.core.framework.CycleState;
import dev.muster.core.framework.NodeInfo;
import dev.muster.core.framework.PodInfo;
import dev.muster.core.framework.ReservePlugin;
import dev.muster.core.framework.Status;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Reserve plugin that holds nothing real: it counts reserve/unreserve calls, keeps what it holds per pod (a
 * reserve adds one hold, an unreserve takes one back) and rejects the pods it is told to, with a fixed message.
 * Several can share one call log to check the order the runtime calls them in.
 */
public final class RecordingReserve implements ReservePlugin {
    private final String name;
    private final List<String> log;
    private final Map<String, String> rejections = new TreeMap<>();
    private final Map<String, Integer> held = new TreeMap<>();
    private int reserved;
    private int unreserved;
    private int rejected;

    public RecordingReserve(String name) {
        this(name, new ArrayList<>());
    }

    public RecordingReserve(String name, List<String> sharedLog) {
        this.name = name;
        this.log = sharedLog;
    }

    /** Rejects {@code pod} (by name) with {@code message}. */
    public RecordingReserve rejecting(String pod, String message) {
        rejections.put(pod, message);
        return this;
    }

    /** Rejects every pod with {@code message}. */
    public RecordingReserve rejectingAll(String message) {
        rejections.put("*", message);
        return this;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
        String p = pod == null ? "?" : pod.ref().name();
        log.add("reserve " + name + " " + p);
        String msg = rejections.getOrDefault(p, rejections.get("*"));
        if (msg != null) {
            rejected++;
            return Status.unschedulable(null, msg);
        }
        reserved++;
        held.merge(p, 1, Integer::sum);
        return Status.SUCCESS;
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, NodeInfo node, ClusterView cluster) {
        String p = pod == null ? "?" : pod.ref().name();
        log.add("unreserve " + name + " " + p);
        unreserved++;
        held.merge(p, -1, Integer::sum);
        held.remove(p, 0);
    }

    /** Successful reserves. */
    public int reserved() {
        return reserved;
    }

    public int unreserved() {
        return unreserved;
    }

    /** Reserves this plugin rejected. */
    public int rejected() {
        return rejected;
    }

    /** What is still held, per pod name (a negative count is an unreserve without a reserve). */
    public Map<String, Integer> held() {
        return Map.copyOf(held);
    }

    public List<String> log() {
        return log;
    }
}
