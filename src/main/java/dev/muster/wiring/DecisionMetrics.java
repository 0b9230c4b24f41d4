package dev.muster.wiring;

import dev.muster.adapter.metrics.DecisionRecorder;
import dev.muster.core.decision.Decision;
import dev.muster.core.decision.DecisionResult;
import dev.muster.core.decision.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.EnumMap;
import java.util.Map;

/**
 * Decision metrics named after kube-scheduler's PodGroup metrics ({@code pod_group_scheduling_attempts_total},
 * {@code pod_group_scheduling_algorithm_duration_seconds}), prefixed {@code muster_}. Per-endpoint request counts
 * and latencies come from Quarkus's {@code http_server_requests_seconds} (uri and status tags).
 */
@ApplicationScoped
public class DecisionMetrics implements DecisionRecorder {
    private final Map<Outcome, Counter> attempts = new EnumMap<>(Outcome.class);
    private final Timer algorithm;

    DecisionMetrics(MeterRegistry registry) {
        for (Outcome o : Outcome.values()) {
            attempts.put(o, Counter.builder("muster.pod.group.scheduling.attempts")
                    .description("PodGroup scheduling attempts by result")
                    .tag("result", result(o))
                    .register(registry));
        }
        algorithm = Timer.builder("muster.pod.group.scheduling.algorithm.duration")
                .description("Decision latency of one request (all its PodGroups), engine only")
                .publishPercentileHistogram()
                .register(registry);
    }

    /** Upstream's result label values. */
    static String result(Outcome o) {
        return switch (o) {
            case Scheduled -> "scheduled";
            case Unschedulable -> "unschedulable";
            case Preempting -> "waiting_on_preemption";
            case WaitingForMembers -> "waiting_for_members";
            case PodGroupNotFound -> "not_found";
        };
    }

    @Override
    public void record(DecisionResult result, long nanos) {
        algorithm.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        for (Decision d : result.decisions()) {
            if (d.outcome() != null) {
                attempts.get(d.outcome()).increment();
            }
        }
    }
}
