package dev.muster.wiring;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * Muster's configuration ({@code muster.*}), validated at startup by Hibernate Validator (the Quarkus convention):
 * a bad value stops the service with a message naming the property instead of failing a request later.
 * Every limit on request size and shape lives here.
 */
@ConfigMapping(prefix = "muster")
public interface MusterConfig {

    @Valid
    Limits limits();

    @Valid
    Engine engine();

    @Valid
    Http http();

    @Valid
    Grpc grpc();

    // --- observability (docs/observability.md)

    @Valid
    Metrics metrics();

    @Valid
    Log log();

    @Valid
    Tracing tracing();

    @Valid
    Tls tls();

    @Valid
    Choices choices();

    /** {@code POST /v1/cluster-choices} and gRPC {@code ChooseCluster} (docs/api.md, "Cluster choices"). */
    interface Choices {
        /** Most clusters one request may name. */
        @WithDefault("32")
        @Min(1)
        @Max(1024)
        int maxClusters();

        /**
         * Most clusters one request decides at once (each holds its compiled cluster while it is decided); 0: one per
         * available processor.
         */
        @WithDefault("0")
        @Min(0)
        @Max(64)
        int threads();
    }

    interface Tls {
        /**
         * Client certificates on the HTTPS port: {@code NONE}, {@code REQUEST} (asked for, optional) or
         * {@code REQUIRED} (a client without one the trust store accepts is refused). Set by the {@code mtls}
         * configuration profile; applied at startup (docs/install.md, "TLS").
         */
        @WithDefault("NONE")
        @NotNull
        io.vertx.core.http.ClientAuth clientAuth();
    }

    interface Metrics {
        /**
         * The {@code profile} label of the kube-scheduler-named metrics (upstream: the scheduler profile's name).
         * Muster has one profile; name it as the pods' {@code schedulerName} does, so dashboards can join the two.
         */
        @WithDefault("default-scheduler")
        @NotNull
        String profile();
    }

    interface Log {
        /** One INFO line per PodGroup decision (group, outcome, members placed, victims, engine time). */
        @WithDefault("true")
        boolean decisions();

        /**
         * Decision lines a second at most; the decisions past it are counted and told in one line within a second.
         * 0: no limit.
         */
        @WithDefault("100")
        @PositiveOrZero
        int decisionsPerSecond();
    }

    interface Tracing {
        /**
         * Spans for the phases of a REST decision (decode, validate, compile, decide, encode). Needs the
         * OpenTelemetry SDK on as well ({@code quarkus.otel.sdk.disabled=false}) and an exporter endpoint.
         */
        @WithDefault("false")
        boolean enabled();
    }

    interface Http {
        /**
         * Largest request body decided (or validated) on the event loop that read it, without a hand-off to the worker
         * pool (default 64K; the 100-node {@code small} bench request is 38 KB). Larger bodies are decided on a worker
         * thread, so a request that takes seconds never holds an event loop. 0 sends every request to the workers.
         * Only effective up to {@code quarkus.rest.input-buffer-size} (bodies above that are read on a worker anyway).
         */
        @WithDefault("64K")
        @NotNull
        MemorySize inlineMaxBodySize();

        /**
         * What a request is expected to allocate per byte of its body (default 3; 0 turns it off). Before a body of a
         * megabyte or more is read, when the young generation's eden has less room left than that, a young collection
         * is made at once, while the request holds nothing, instead of in the middle of it, where it would copy the
         * request's decoded document and model. Only with the Parallel and Serial collectors (the Deployment's is
         * Parallel); with others nothing is done.
         */
        @WithDefault("3")
        @PositiveOrZero
        double youngRoomFactor();
    }

    interface Grpc {
        /**
         * Longest a gRPC call may take, from its headers to its answer (default 60s). A call's deadline is the earlier
         * of the client's ({@code grpc-timeout}) and this one, so a call without a deadline still ends: a sender that
         * stalls before its message has arrived whole is answered {@code DEADLINE_EXCEEDED} then (as REST answers
         * 408 at {@code limits.request-read-timeout}), and a decision still running stops at its next step.
         */
        @WithDefault("60s")
        @NotNull
        java.time.Duration maxCallDuration();
    }

    interface Limits {
        /**
         * Largest request body (default 128M; a 5,000-node, 50,000-pod snapshot is ~90 MB). Larger bodies get a 413
         * Status. {@code quarkus.http.limits.max-body-size} follows this value.
         */
        @WithDefault("128M")
        @NotNull
        MemorySize maxBodySize();

        /** Longest {@code snapshot.nodes}. */
        @WithDefault("20000")
        @Min(1)
        int maxNodes();

        /** Longest {@code snapshot.pods}. */
        @WithDefault("200000")
        @Min(1)
        int maxPods();

        /** Longest {@code snapshot.podGroups} and {@code podGroups}. */
        @WithDefault("20000")
        @Min(1)
        int maxPodGroups();

        /** Longest of every other snapshot list (workloads, priority classes, PDBs, DRA objects). */
        @WithDefault("100000")
        @Min(1)
        int maxObjects();

        /** Longest {@code snapshot.hyperNodes} (Volcano HyperNodes). */
        @WithDefault("10000")
        @Min(1)
        int maxHyperNodes();

        /** Deepest JSON/YAML nesting (Kubernetes objects nest about 15 levels). */
        @WithDefault("64")
        @Min(16)
        @Max(1000)
        int maxNestingDepth();

        /** Longest single string value, in characters. */
        @WithDefault("4194304")
        @Min(1024)
        int maxStringLength();

        /** Longest number literal, in characters. */
        @WithDefault("64")
        @Min(20)
        @Max(1000)
        int maxNumberLength();

        /** Most causes listed in one 422 answer (the rest are counted in its message). */
        @WithDefault("1000")
        @Min(1)
        int maxCauses();

        /**
         * Longest time an HTTP/1.1 request may take to arrive whole, headers to the body's last byte (default 60s):
         * a client still sending then gets a 408 Status and the connection is closed, however slowly it trickles
         * bytes. ({@code quarkus.http.idle-timeout} closes connections that send nothing at all.)
         */
        @WithDefault("60s")
        @NotNull
        java.time.Duration requestReadTimeout();
    }

    interface Engine {
        /** Node evaluations the bounded search may spend per group after a failed greedy pass (0 = off). */
        @WithDefault("200000")
        @PositiveOrZero
        long searchBudget();

        /** Threads for filter/score over large node lists (1 = sequential). */
        @WithDefault("1")
        @Min(1)
        @Max(256)
        int parallelism();

        /** Node count from which filter/score run in parallel chunks. */
        @WithDefault("1024")
        @Min(1)
        int parallelThreshold();

        /**
         * Helper threads that compile a large decision request (core model and snapshot) while the request thread
         * validates it (0 = compile after validation, on the request thread).
         */
        @WithDefault("1")
        @Min(0)
        @Max(64)
        int compileAheadThreads();

        /** Nodes plus pods from which a decision request is compiled by a helper. */
        @WithDefault("2000")
        @Min(0)
        int compileAheadThreshold();
    }
}
