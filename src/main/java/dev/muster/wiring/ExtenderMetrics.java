package dev.muster.wiring;

import dev.muster.adapter.metrics.ExtenderRecorder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The extender webhook's calls: {@code muster_extender_requests_total{verb,result}} and
 * {@code muster_extender_request_duration_seconds{verb,result}}. kube-scheduler has no server-side metric for an
 * extender (it times its own calls only as goroutines), so these carry Muster's prefix. Buckets start at 0.1 ms
 * (kube-scheduler's ExponentialBuckets(0.0001, 2, 16), up to ~3.3 s): a cached filter answer takes well under 1 ms.
 */
@Singleton
public class ExtenderMetrics implements ExtenderRecorder {
    static final List<String> VERBS = List.of("filter", "prioritize", "preempt", "bind");
    static final Duration[] BUCKETS = DecisionMetrics.exponential(0.0001, 2, 16);

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    ExtenderMetrics(MeterRegistry registry) {
        for (String verb : VERBS) {
            for (String result : List.of(SUCCESS, ERROR)) {
                String key = verb + '/' + result;
                counters.put(key, Counter.builder("muster.extender.requests")
                        .description("kube-scheduler extender calls answered, by verb and result ('error': the "
                                + "answer carries an Error or is a 400)")
                        .tags("verb", verb, "result", result)
                        .register(registry));
                timers.put(key, Timer.builder("muster.extender.request.duration")
                        .description("Time to answer one extender call, from its body to its answer")
                        .tags("verb", verb, "result", result)
                        .serviceLevelObjectives(BUCKETS)
                        .register(registry));
            }
        }
    }

    @Override
    public void record(String verb, String result, long nanos) {
        String key = verb + '/' + result;
        Counter c = counters.get(key);
        if (c == null) {
            return; // only the known verbs and results are kept, so the label set stays bounded
        }
        c.increment();
        timers.get(key).record(nanos, TimeUnit.NANOSECONDS);
    }
}
