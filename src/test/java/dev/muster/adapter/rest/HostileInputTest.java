package dev.muster.adapter.rest;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a hostile client can send, against the running service: each gets a 4xx Status (or its connection cut) and
 * the service answers a normal request afterwards. Timeouts here are generous and only detect hangs. The profile
 * shortens the idle and read timeouts so that the slow senders are cut off within seconds.
 */
@QuarkusTest
@TestProfile(HostileInputTest.ShortTimeouts.class)
class HostileInputTest {
    public static class ShortTimeouts implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.idle-timeout", "2s", "muster.limits.request-read-timeout", "3s");
        }
    }

    private static final Duration HANG = Duration.ofSeconds(30);
    private static final String NORMAL = "{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n0\"},"
            + "\"status\":{\"allocatable\":{\"cpu\":\"4\"}}}]}}";

    /** A client of its own per request: no pooled connection outlives the profile's 2 s idle timeout. */
    private static HttpClient client() {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    private HttpResponse<String> post(String path, String contentType, byte[] body, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                .timeout(HANG).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void assertStatus(HttpResponse<String> r, int code) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(code);
        assertThat(r.body()).contains("\"kind\":\"Status\"").contains("\"code\":" + code);
    }

    /**
     * After every hostile request: a normal one is still answered (within 10 s: hang detection only), on a connection
     * of its own (a pooled one that sat idle for 2 s could be closed by the server just as the client reuses it).
     */
    @AfterEach
    void theServiceStillAnswers() throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/v1/validations"))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(NORMAL)).build();
        assertThat(client().send(r, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }

    @Test
    void nesting100000DeepIsA400() throws Exception {
        int depth = 100_000;
        String json = "{\"snapshot\":{\"nodes\":" + "[".repeat(depth) + "]".repeat(depth) + "}}";
        assertStatus(post("/v1/decisions", "application/json", utf8(json)), 400);
        String skipped = "{\"snapshot\":{\"nodes\":[],\"unknown\":" + "[".repeat(depth) + "]".repeat(depth) + "}}";
        HttpResponse<String> r = post("/v1/decisions", "application/json", utf8(skipped));
        assertStatus(r, 400);
        assertThat(r.body()).contains("nesting depth");
        String yaml = "snapshot:\n  nodes: " + "[".repeat(depth) + "]".repeat(depth) + "\n";
        assertStatus(post("/v1/decisions", "application/yaml", utf8(yaml)), 400);
        String yamlBlock = "snapshot:\n  nodes:\n" + "- ".repeat(depth) + "x\n";
        assertStatus(post("/v1/decisions", "application/yaml", utf8(yamlBlock)), 400);
    }

    @Test
    void aFiftyMegabyteLabelValueIsA400() throws Exception {
        byte[] head = utf8("{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n\",\"labels\":{\"a\":\"");
        byte[] tail = utf8("\"}}}]}}");
        byte[] body = Arrays.copyOf(head, head.length + 50 * 1024 * 1024 + tail.length);
        Arrays.fill(body, head.length, head.length + 50 * 1024 * 1024, (byte) 'v');
        System.arraycopy(tail, 0, body, body.length - tail.length, tail.length);
        HttpResponse<String> r = post("/v1/validations", "application/json", body);
        assertStatus(r, 400);
        assertThat(r.body()).contains("exceeds the maximum allowed (4194304");
    }

    @Test
    void aMillionEmptyNodesIsA422TooMany() throws Exception {
        StringBuilder sb = new StringBuilder(3_100_000).append("{\"snapshot\":{\"nodes\":[{}");
        for (int i = 1; i < 1_000_000; i++) {
            sb.append(",{}");
        }
        sb.append("]}}");
        HttpResponse<String> r = post("/v1/decisions", "application/json", utf8(sb.toString()));
        assertStatus(r, 422);
        assertThat(r.body()).contains("FieldValueTooMany").contains("\"field\":\"snapshot.nodes\"");
    }

    @Test
    void aYamlAliasBombIsA400() throws Exception {
        StringBuilder y = new StringBuilder("a0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
        for (int i = 1; i < 10; i++) {
            String p = "*a" + (i - 1);
            y.append("a").append(i).append(": &a").append(i).append(" [").append(String.join(",",
                    java.util.Collections.nCopies(9, p))).append("]\n");
        }
        y.append("snapshot:\n  nodes: *a9\n");
        HttpResponse<String> r = post("/v1/decisions", "application/yaml", utf8(y.toString()));
        assertStatus(r, 400);
    }

    @Test
    void aGzipBodyIsRefusedWith415NotInflated() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
            byte[] spaces = new byte[1 << 20];
            Arrays.fill(spaces, (byte) ' ');
            gz.write('{');
            for (int i = 0; i < 256; i++) { // 256 MB of whitespace (over the body limit), 250 KB compressed
                gz.write(spaces);
            }
            gz.write('}');
        }
        HttpResponse<String> r = post("/v1/decisions", "application/json", zipped.toByteArray(),
                "Content-Encoding", "gzip");
        assertStatus(r, 415);
        assertThat(r.body()).contains("Content-Encoding");
    }

    @Test
    void headersOf64KilobytesAreA4xx() throws Exception {
        try (Socket s = new Socket("localhost", RestAssured.port)) {
            s.setSoTimeout((int) HANG.toMillis());
            OutputStream out = s.getOutputStream();
            try {
                out.write(utf8("GET /q/health/live HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "h".repeat(64 * 1024)
                        + "\r\nConnection: close\r\n\r\n"));
                out.flush();
            } catch (java.io.IOException closedEarly) {
                // the server may answer and close before the whole request is sent
            }
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c >= 0 && c != '\n'; c = in.read()) {
                line.append((char) c);
            }
            assertThat(line.toString()).matches("HTTP/1\\.1 (431|400) .*\r?");
        }
    }

    @Test
    void aSenderThatStopsIsCutOffWhileOthersAreAnswered() throws Exception {
        try (Socket s = new Socket("localhost", RestAssured.port)) {
            s.setSoTimeout((int) HANG.toMillis());
            OutputStream out = s.getOutputStream();
            out.write(utf8("POST /v1/decisions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100000\r\n\r\n{\"snapshot\":"));
            out.flush();
            theServiceStillAnswers(); // while the slow request holds its connection
            String answer = readAll(s.getInputStream()); // ends when the server closes the connection
            assertThat(answer).satisfiesAnyOf(a -> assertThat(a).isEmpty(), a -> assertThat(a).startsWith("HTTP/1.1 408"));
        }
    }

    @Test
    void aSenderThatTricklesIsAnswered408AndCutOff() throws Exception {
        try (Socket s = new Socket("localhost", RestAssured.port)) {
            s.setSoTimeout(500);
            OutputStream out = s.getOutputStream();
            out.write(utf8("POST /v1/decisions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100000\r\n\r\n{\"snapshot\":"));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            long until = System.nanoTime() + HANG.toNanos();
            boolean closed = false;
            while (!closed && System.nanoTime() < until) {
                try {
                    out.write(' '); // one byte every half second: never idle long enough for the idle timeout
                    out.flush();
                } catch (java.io.IOException cut) {
                    closed = true;
                }
                try {
                    int n = in.read();
                    if (n < 0) {
                        closed = true;
                    } else {
                        got.write(n);
                        got.write(in.readNBytes(in.available()));
                    }
                } catch (java.net.SocketTimeoutException nothingYet) {
                    // keep trickling
                }
            }
            assertThat(closed).as("the connection was closed").isTrue();
            assertThat(got.toString(StandardCharsets.UTF_8)).startsWith("HTTP/1.1 408").contains("\"code\":408")
                    .contains("muster.limits.request-read-timeout");
        }
    }

    @Test
    void kubectlListObjectsAreAcceptedAndTheirKindChecked() throws Exception {
        String list = "{\"snapshot\":{\"nodes\":{\"apiVersion\":\"v1\",\"kind\":\"List\",\"metadata\":"
                + "{\"resourceVersion\":\"\"},\"items\":[{\"metadata\":{\"name\":\"n0\"}}]}}}";
        assertThat(post("/v1/validations", "application/json", utf8(list)).statusCode()).isEqualTo(200);
        HttpResponse<String> r = post("/v1/validations", "application/json", utf8(list.replace("\"List\"", "\"PodList\"")));
        assertStatus(r, 422);
        assertThat(r.body()).contains("FieldValueNotSupported").contains("\"field\":\"snapshot.nodes.kind\"");
    }

    private static String readAll(InputStream in) throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                b.write(buf, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // a reset after the answer: what was read is the answer
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
