package dev.muster.adapter.rest;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * A cluster choice whose inline snapshots pass the body limit is a 413 Status, whether it declares its length or
 * is chunked, and the service answers the next choice: the snapshots are never read (bench/choice.sh checks the
 * same against the jar with the Deployment's heap, at the default 128 MiB limit).
 */
@QuarkusTest
@TestProfile(ChoiceBodyLimitTest.OneMebibyte.class)
class ChoiceBodyLimitTest {
    public static class OneMebibyte implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.limits.max-body-size", "1M", "quarkus.http.test-port", "8095");
        }
    }

    /** A choice of one inline cluster of identical 8-CPU nodes, just over {@code bytes}. */
    static byte[] choiceOver(int bytes) {
        StringBuilder sb = new StringBuilder(bytes + 4096)
                .append("{\"clusters\":[{\"name\":\"big\",\"snapshot\":{\"nodes\":[");
        for (int i = 0; sb.length() < bytes; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-")
                    .append(i).append("\",\"labels\":{\"kubernetes.io/hostname\":\"node-").append(i)
                    .append("\",\"topology.kubernetes.io/zone\":\"zone-").append(i % 3).append("\"}},\"spec\":{},")
                    .append("\"status\":{\"allocatable\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\"},")
                    .append("\"capacity\":{\"cpu\":\"8\",\"memory\":\"32Gi\",\"pods\":\"110\"}}}");
        }
        sb.append("]}}],\"workload\":{\"pods\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"w-0\",")
                .append("\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",")
                .append("\"resources\":{\"requests\":{\"cpu\":\"1\"}}}]}}]}}");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aChoiceOverTheLimitWithContentLengthIsATooLargeStatus() {
        byte[] body = choiceOver(2 << 20);
        given().contentType(ContentType.JSON).body(body)
                .when().post("/v1/cluster-choices")
                .then().statusCode(413).contentType(ContentType.JSON)
                .body("kind", equalTo("Status")).body("reason", equalTo("RequestEntityTooLarge"))
                .body("code", equalTo(413));
        aChoiceUnderTheLimitIsDecided();
    }

    @Test
    void aChunkedChoiceOverTheLimitIsATooLargeStatus() throws Exception {
        String answer = postChunked(RestAssured.port, "/v1/cluster-choices", choiceOver(2 << 20), 64 * 1024);
        assertThat(answer).startsWith("HTTP/1.1 413");
        assertThat(answer).contains("\"kind\":\"Status\"").contains("\"code\":413");
        aChoiceUnderTheLimitIsDecided();
    }

    @Test
    void aChoiceUnderTheLimitIsDecided() {
        byte[] small = choiceOver(64 * 1024);
        given().contentType(ContentType.JSON).body(small)
                .when().post("/v1/cluster-choices")
                .then().statusCode(200).body("choices[0].cluster", equalTo("big"))
                .body("choices[0].fit", equalTo("Fits"));
    }

    @Test
    void theExampleIsDecidedUnderTheLimit() throws IOException {
        given().contentType(ContentType.JSON).body(Files.readAllBytes(Path.of("openapi/examples/cluster-choices.json")))
                .when().post("/v1/cluster-choices")
                .then().statusCode(200);
    }

    /** {@code body} in chunks (no Content-Length); the server may answer and close before all of it is sent. */
    private static String postChunked(int port, String path, byte[] body, int chunkSize) throws Exception {
        try (Socket s = new Socket("localhost", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            try {
                for (int at = 0; at < body.length; at += chunkSize) {
                    int n = Math.min(chunkSize, body.length - at);
                    out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(body, at, n);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException closedEarly) {
                // the answer was sent before the whole body
            }
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            byte[] b = new byte[8192];
            try {
                for (int n; (n = in.read(b)) > 0; ) {
                    buf.write(b, 0, n);
                }
            } catch (IOException e) {
                // what arrived is the answer
            }
            return buf.toString(StandardCharsets.UTF_8);
        }
    }
}
