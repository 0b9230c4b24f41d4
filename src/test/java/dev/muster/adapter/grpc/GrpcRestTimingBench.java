package dev.muster.adapter.grpc;

import dev.muster.grpc.v1.DecideRequest;
import dev.muster.grpc.v1.DecideResponse;
import dev.muster.grpc.v1.DecisionServiceGrpc;
import io.grpc.ManagedChannel;
import io.quarkus.test.junit.QuarkusTest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A manual timing, skipped unless {@code bench.nodes} is set (so {@code -Dtest='dev.muster.adapter.grpc.**'} does not
 * run it either): one Decide for a 5,000-node snapshot
 * over gRPC and over REST, same instance, same run. Run with
 * {@code mvn -o test -Dtest=GrpcRestTimingBench -Dbench.nodes=5000 -Dbench.pods=50000}; it prints the figures.
 */
@QuarkusTest
@EnabledIfSystemProperty(named = "bench.nodes", matches = "\\d+", disabledReason = "a manual timing: pass -Dbench.nodes")
class GrpcRestTimingBench {
    @Inject
    MeterRegistry meters;

    /** Engine time recorded by DecisionMetrics (both transports record it), in ms. */
    private double engineMs() {
        Timer t = meters.find("muster.decision.duration").timer();
        return t == null ? 0 : t.totalTime(TimeUnit.MILLISECONDS);
    }
    @Test
    void oneDecideForALargeSnapshot() throws Exception {
        int nodes = Integer.getInteger("bench.nodes", 5000);
        int pods = Integer.getInteger("bench.pods", 50000);
        int runs = Integer.getInteger("bench.runs", 3);
        String json = RandomSnapshots.large(42, nodes, pods);
        byte[] body = RandomSnapshots.bytes(json);
        long t0 = System.nanoTime();
        DecideRequest req = GrpcRequestMapperTest.parse(json);
        long jsonFormatMs = (System.nanoTime() - t0) / 1_000_000;
        ManagedChannel channel = GrpcChannels.open();
        try {
            DecisionServiceGrpc.DecisionServiceBlockingStub stub = DecisionServiceGrpc.newBlockingStub(channel);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            HttpRequest post = HttpRequest.newBuilder(URI.create("http://localhost:" + GrpcChannels.port() + "/v1/decisions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            long[] grpc = new long[runs];
            long[] rest = new long[runs];
            long[] grpcEngine = new long[runs];
            long[] restEngine = new long[runs];
            DecideResponse last = null;
            String restBody = null;
            for (int i = -1; i < runs; i++) { // i = -1: warm-up
                double e0 = engineMs();
                long s = System.nanoTime();
                last = stub.withDeadlineAfter(10, TimeUnit.MINUTES).decide(req);
                long g = System.nanoTime() - s;
                double e1 = engineMs();
                s = System.nanoTime();
                HttpResponse<String> r = http.send(post, HttpResponse.BodyHandlers.ofString());
                long h = System.nanoTime() - s;
                double e2 = engineMs();
                assertThat(r.statusCode()).isEqualTo(200);
                restBody = r.body();
                if (i >= 0) {
                    grpc[i] = g / 1_000_000;
                    rest[i] = h / 1_000_000;
                    grpcEngine[i] = (long) (e1 - e0);
                    restEngine[i] = (long) (e2 - e1);
                }
            }
            assertThat(Proto3Json.normalize(Proto3Json.of(last)))
                    .isEqualTo(Proto3Json.normalize(Proto3Json.JSON.readTree(restBody)));
            // the reading-and-checking cost alone: Validate vs POST /v1/validations
            HttpRequest validate = HttpRequest.newBuilder(URI.create("http://localhost:" + GrpcChannels.port()
                    + "/v1/validations")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
            long[] grpcValidate = new long[runs];
            long[] restValidate = new long[runs];
            for (int i = -1; i < runs; i++) {
                long s = System.nanoTime();
                assertThat(stub.withDeadlineAfter(10, TimeUnit.MINUTES).validate(req).getValid()).isTrue();
                long g = System.nanoTime() - s;
                s = System.nanoTime();
                assertThat(http.send(validate, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
                long h = System.nanoTime() - s;
                if (i >= 0) {
                    grpcValidate[i] = g / 1_000_000;
                    restValidate[i] = h / 1_000_000;
                }
            }
            Arrays.sort(grpcValidate);
            Arrays.sort(restValidate);
            System.out.printf("%nBENCH gRPC Validate ms: %s%nBENCH REST POST /v1/validations ms: %s%n",
                    Arrays.toString(grpcValidate), Arrays.toString(restValidate));
            Arrays.sort(grpc);
            Arrays.sort(rest);
            System.out.printf("%nBENCH nodes=%d pods=%d json=%.1f MB protobuf=%.1f MB decisions=%d "
                            + "(JsonFormat parse on the client: %d ms)%n"
                            + "BENCH gRPC Decide ms: %s (median %d), engine part %s%n"
                            + "BENCH REST POST /v1/decisions ms: %s (median %d), engine part %s%n",
                    nodes, pods, body.length / 1e6, req.getSerializedSize() / 1e6, last.getDecisionsCount(),
                    jsonFormatMs, Arrays.toString(grpc), grpc[runs / 2], Arrays.toString(grpcEngine),
                    Arrays.toString(rest), rest[runs / 2], Arrays.toString(restEngine));
        } finally {
            GrpcChannels.close(channel);
        }
    }
}
