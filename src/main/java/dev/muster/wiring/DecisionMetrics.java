package dev.muster.wiring;

import dev.muster.adapter.metrics.DecisionRecorder;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionObserver;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Outcome;
import dev.muster.core.model.GroupRef;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Decision metrics under kube-scheduler's names where the meaning is the same (docs/observability.md lists them):
 * per PodGroup attempt {@code scheduler_podgroup_schedule_attempts_total} and
 * {@code scheduler_podgroup_scheduling_attempt_duration_seconds} (labels result, profile),
 * {@code scheduler_podgroup_scheduling_algorithm_duration_seconds}; per member pod
 * {@code scheduler_schedule_attempts_total}; group-initiated preemption {@code scheduler_workload_preemption_attempts_total}
 * (label result: the framework status code) and {@code scheduler_workload_preemption_victims}. Buckets are
 * kube-scheduler's exponential ones. Muster-only meanings carry the {@code muster_} prefix: groups not attempted
 * ({@code muster_podgroup_not_attempted_total}) and the engine time of a whole request
 * ({@code muster_decision_duration_seconds}).
 */
@Singleton
public class DecisionMetrics implements DecisionRecorder, DecisionObserver {
    /** kube-scheduler's attempt latency buckets: ExponentialBuckets(0.001, 2, 15), 1 ms to ~16 s. */
    static final Duration[] ATTEMPT_BUCKETS = exponential(0.001, 2, 15);
    /** kube-scheduler's workload preemption victim buckets: ExponentialBuckets(1, 2, 11), 1 to 1024. */
    static final double[] VICTIM_BUCKETS = exponentialCounts(1, 2, 11);

    static final String SCHEDULED = "scheduled";
    static final String UNSCHEDULABLE = "unschedulable";
    static final String WAITING_ON_PREEMPTION = "waiting_on_preemption";
    static final String ERROR = "error";

    private final MeterRegistry registry;
    private final String profile;
    private final Map<String, Counter> groupAttempts = new HashMap<>();
    private final Map<String, Timer> groupLatency = new HashMap<>();
    private final Map<String, Counter> podAttempts = new HashMap<>();
    /**
     * Plain pods' attempts, added to {@link #podAttempts} when their run is over: a run may decide ten thousand plain
     * pods, and a counter's increment (with its exemplar sampling) per pod cost more than the rest of this observer.
     */
    private final java.util.concurrent.atomic.LongAdder plainScheduled = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder plainUnschedulable =
            new java.util.concurrent.atomic.LongAdder();
    private final Map<String, Counter> preemptionAttempts = new HashMap<>();
    private final Map<Outcome, Counter> notAttempted = new HashMap<>();
    private final Timer algorithm;
    private final DistributionSummary victims;
    private final Timer request;

    @Inject
    DecisionMetrics(MeterRegistry registry, MusterConfig config) {
        this(registry, config.metrics().profile());
    }

    DecisionMetrics(MeterRegistry registry, String profile) {
        this.registry = registry;
        this.profile = profile;
        for (String r : List.of(SCHEDULED, UNSCHEDULABLE, WAITING_ON_PREEMPTION, ERROR)) {
            groupAttempts.put(r, Counter.builder("scheduler.podgroup.schedule.attempts")
                    .description("Number of attempts to schedule pod group, by the result. 'unschedulable' means a "
                            + "pod group could not be scheduled, while 'error' means an internal scheduler problem.")
                    .tags("result", r, "profile", profile)
                    .register(registry));
            groupLatency.put(r, Timer.builder("scheduler.podgroup.scheduling.attempt.duration")
                    .description("Pod group scheduling attempt latency in seconds")
                    .tags("result", r, "profile", profile)
                    .serviceLevelObjectives(ATTEMPT_BUCKETS)
                    .register(registry));
        }
        for (String r : List.of(SCHEDULED, UNSCHEDULABLE)) {
            podAttempts.put(r, Counter.builder("scheduler.schedule.attempts")
                    .description("Number of attempts to schedule pods, by the result. 'unschedulable' means a pod "
                            + "could not be scheduled, while 'error' means an internal scheduler problem.")
                    .tags("result", r, "profile", profile)
                    .register(registry));
        }
        for (String r : List.of("Success", "Unschedulable")) {
            preemptionAttempts.put(r, Counter.builder("scheduler.workload.preemption.attempts")
                    .description("Total preemption attempts initiated by workload (including pod groups) till now.")
                    .tag("result", r)
                    .register(registry));
        }
        notAttempted.put(Outcome.WaitingForMembers, notAttemptedCounter("waiting_for_members"));
        notAttempted.put(Outcome.PodGroupNotFound, notAttemptedCounter("not_found"));
        algorithm = Timer.builder("scheduler.podgroup.scheduling.algorithm.duration")
                .description("Pod group scheduling algorithm latency in seconds")
                .serviceLevelObjectives(ATTEMPT_BUCKETS)
                .register(registry);
        victims = DistributionSummary.builder("scheduler.workload.preemption.victims")
                .description("Number of pod preemption victims caused by workload preemption.")
                .serviceLevelObjectives(VICTIM_BUCKETS)
                .register(registry);
        request = Timer.builder("muster.decision.duration")
                .description("Engine time of one decision request (all its PodGroups; not decoding or encoding)")
                .serviceLevelObjectives(ATTEMPT_BUCKETS)
                .register(registry);
    }

    private Counter notAttemptedCounter(String reason) {
        return Counter.builder("muster.podgroup.not.attempted")
                .description("PodGroups decided without a scheduling attempt: too few members yet "
                        + "(waiting_for_members) or no such PodGroup in the request (not_found)")
                .tag("reason", reason)
                .register(registry);
    }

    /** Upstream's result label of a group attempt; null for outcomes that are not an attempt. */
    static String result(Outcome o) {
        return switch (o) {
            case Scheduled -> SCHEDULED;
            case Unschedulable -> UNSCHEDULABLE;
            case Preempting -> WAITING_ON_PREEMPTION;
            case WaitingForMembers, PodGroupNotFound -> null;
        };
    }

    @Override
    public void record(DecisionResult result, long nanos) {
        request.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void finished() {
        long scheduled = plainScheduled.sumThenReset();
        long unschedulable = plainUnschedulable.sumThenReset();
        if (scheduled > 0) {
            podAttempts.get(SCHEDULED).increment(scheduled);
        }
        if (unschedulable > 0) {
            podAttempts.get(UNSCHEDULABLE).increment(unschedulable);
        }
    }

    @Override
    public void decided(Decision d, boolean preemptionAttempted, long nanos) {
        if (d.isPlainPod()) {
            // A plain pod is no PodGroup attempt: it counts as a pod attempt only (when the run is over).
            (d.outcome() == Outcome.Scheduled ? plainScheduled : plainUnschedulable).increment();
            return;
        }
        String r = result(d.outcome());
        if (r == null) {
            notAttempted.get(d.outcome()).increment();
            return;
        }
        groupAttempts.get(r).increment();
        groupLatency.get(r).record(nanos, TimeUnit.NANOSECONDS);
        algorithm.record(nanos, TimeUnit.NANOSECONDS);
        // members: placed ones scheduled; the rest (nominated ones included) unschedulable in this attempt
        int placed = d.placements().size();
        int failed = d.unschedulablePods().size() + d.nominations().size();
        if (placed > 0) {
            podAttempts.get(SCHEDULED).increment(placed);
        }
        if (failed > 0) {
            podAttempts.get(UNSCHEDULABLE).increment(failed);
        }
        if (preemptionAttempted) {
            boolean success = d.outcome() == Outcome.Preempting;
            preemptionAttempts.get(success ? "Success" : "Unschedulable").increment();
            if (success) {
                victims.record(d.victims().size());
            }
        }
    }

    @Override
    public void failed(GroupRef podGroup, long nanos) {
        groupAttempts.get(ERROR).increment();
        groupLatency.get(ERROR).record(nanos, TimeUnit.NANOSECONDS);
    }

    String profile() {
        return profile;
    }

    static Duration[] exponential(double startSeconds, double factor, int count) {
        Duration[] out = new Duration[count];
        double v = startSeconds;
        for (int i = 0; i < count; i++) {
            out[i] = Duration.ofNanos(Math.round(v * 1e9));
            v *= factor;
        }
        return out;
    }

    static double[] exponentialCounts(double start, double factor, int count) {
        double[] out = new double[count];
        double v = start;
        for (int i = 0; i < count; i++) {
            out[i] = v;
            v *= factor;
        }
        return out;
    }
}
