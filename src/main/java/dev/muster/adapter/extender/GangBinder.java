package dev.muster.adapter.extender;

import dev.muster.adapter.clusterview.WatchedClusterVersion;
import dev.muster.adapter.clusterview.ClusterViewSource.PodBinder;
import dev.muster.adapter.extender.ExtenderWire.ExtenderBindingArgs;
import dev.muster.adapter.extender.ExtenderWire.ExtenderBindingResult;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.PodRef;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The bind verb with upstream's Permit/WaitOnPermit for gangs: a member of a {@code gang} PodGroup is held until
 * the group's running members plus the members waiting here reach {@code minCount}; then every waiting member is
 * bound through the API, each answer carrying its own result. A member still waiting after {@code timeout} is
 * answered with an Error (the scheduler then unreserves it and tries again later) and nothing of it is bound.
 * Pods in no group, in a {@code basic} group, or unknown to the view bind at once.
 * <p>
 * A repeated bind for a pod already waiting replaces the earlier call, which is answered with an Error.
 */
public final class GangBinder {
    private static final Logger LOG = Logger.getLogger(GangBinder.class);

    private final Supplier<WatchedClusterVersion> views;
    private final PodBinder binder;
    private final Duration timeout;
    private final ScheduledExecutorService timer;
    private final Map<GroupRef, Map<PodRef, Waiting>> waiting = new HashMap<>();

    private record Waiting(ExtenderBindingArgs args, CompletableFuture<ExtenderBindingResult> answer,
                           ScheduledFuture<?> expiry) {
    }

    public GangBinder(Supplier<WatchedClusterVersion> views, PodBinder binder, Duration timeout,
                      ScheduledExecutorService timer) {
        this.views = views;
        this.binder = binder;
        this.timeout = timeout;
        this.timer = timer;
    }

    public CompletionStage<ExtenderBindingResult> bind(ExtenderBindingArgs args) {
        if (args.podName() == null || args.podName().isEmpty() || args.node() == null || args.node().isEmpty()) {
            return CompletableFuture.completedFuture(new ExtenderBindingResult("PodName and Node are required"));
        }
        String ns = args.podNamespace() == null || args.podNamespace().isEmpty() ? "default" : args.podNamespace();
        PodRef ref = new PodRef(ns, args.podName());
        WatchedClusterVersion view = views.get();
        Pod pod = view.pod(ref);
        GroupRef groupRef = pod == null ? null : pod.groupRef();
        PodGroup group = groupRef == null ? null : findGroup(view, groupRef);
        if (group == null || !group.policy().isGang() || group.policy().minCount() <= 1) {
            return CompletableFuture.completedFuture(bindNow(args, ns));
        }
        CompletableFuture<ExtenderBindingResult> answer = new CompletableFuture<>();
        List<Waiting> release = null;
        synchronized (this) {
            Map<PodRef, Waiting> members = waiting.computeIfAbsent(groupRef, k -> new LinkedHashMap<>());
            ScheduledFuture<?> expiry = timer.schedule(() -> expire(groupRef, ref, answer, group.policy().minCount()),
                    timeout.toMillis(), TimeUnit.MILLISECONDS);
            Waiting previous = members.put(ref, new Waiting(args, answer, expiry));
            if (previous != null) {
                previous.expiry.cancel(false);
                previous.answer.complete(new ExtenderBindingResult("superseded by a newer bind request for pod "
                        + ref + " (node \"" + args.node() + "\")"));
            }
            int running = runningMembers(view, groupRef, members);
            if (running + members.size() >= group.policy().minCount()) {
                release = new ArrayList<>(members.values());
                waiting.remove(groupRef);
            } else {
                LOG.debugf("pod %s waits in bind for pod group %s: %d running + %d waiting of minCount %d", ref,
                        groupRef, running, members.size(), group.policy().minCount());
            }
        }
        if (release != null) {
            for (Waiting w : release) {
                w.expiry.cancel(false);
                String wns = w.args.podNamespace() == null || w.args.podNamespace().isEmpty() ? "default"
                        : w.args.podNamespace();
                w.answer.complete(bindNow(w.args, wns));
            }
        }
        return answer;
    }

    private void expire(GroupRef group, PodRef ref, CompletableFuture<ExtenderBindingResult> answer, int minCount) {
        int waitingNow;
        synchronized (this) {
            Map<PodRef, Waiting> members = waiting.get(group);
            if (members == null || members.get(ref) == null || members.get(ref).answer != answer) {
                return;
            }
            waitingNow = members.size();
            members.remove(ref);
            if (members.isEmpty()) {
                waiting.remove(group);
            }
        }
        answer.complete(new ExtenderBindingResult(String.format(
                "pod group \"%s\": only %d of minCount %d members reached bind within %s; pod %s was not bound",
                group, runningMembers(views.get(), group, Map.of()) + waitingNow, minCount, format(timeout), ref)));
    }

    /** Members of the group bound (and not finished) in the view, not counting the ones waiting here. */
    private static int runningMembers(WatchedClusterVersion view, GroupRef group, Map<PodRef, Waiting> waitingMembers) {
        int n = 0;
        for (Pod p : view.state().pods()) {
            if (group.equals(p.groupRef()) && p.isBound() && !p.isTerminal() && !p.terminating()
                    && !waitingMembers.containsKey(p.ref())) {
                n++;
            }
        }
        return n;
    }

    private static PodGroup findGroup(WatchedClusterVersion view, GroupRef ref) {
        for (PodGroup g : view.state().podGroups()) {
            if (g.ref().equals(ref)) {
                return g;
            }
        }
        return null;
    }

    private ExtenderBindingResult bindNow(ExtenderBindingArgs args, String ns) {
        try {
            binder.bind(ns, args.podName(), args.podUID(), args.node());
            return new ExtenderBindingResult("");
        } catch (Exception e) {
            return new ExtenderBindingResult("binding pod " + ns + "/" + args.podName() + " to node \""
                    + args.node() + "\" failed: " + e.getMessage());
        }
    }

    static String format(Duration d) {
        long s = d.toSeconds();
        if (s % 60 == 0 && s >= 60) {
            return (s / 60) + "m";
        }
        return d.toMillis() % 1000 == 0 ? s + "s" : d.toMillis() + "ms";
    }
}
