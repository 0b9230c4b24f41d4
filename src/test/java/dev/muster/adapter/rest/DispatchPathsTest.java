package dev.muster.adapter.rest;

import com.fasterxml.jackson.databind.ObjectWriter;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.core.decision.DecisionEngine;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ways a request body is handled (application.properties: quarkus.rest.input-buffer-size=1M,
 * muster.http.inline-max-body-size=64K) give the same bytes as the pipeline run in-process: decided on the event loop
 * (small body), buffered on the event loop and decided on a worker (over 64K), read whole into one array by
 * {@link LargeBodies} and decided on a worker (over 1M with a Content-Length), streamed to a worker (over 1M, chunked).
 * Leading whitespace makes the same document larger.
 */
@QuarkusTest
class DispatchPathsTest {
    @Inject
    KubeCodec codec;
    @Inject
    DecisionEngine engine;

    static byte[] padded(byte[] body, int size) {
        byte[] out = new byte[size];
        java.util.Arrays.fill(out, 0, size - body.length, (byte) ' ');
        System.arraycopy(body, 0, out, size - body.length, body.length);
        return out;
    }

    String inProcess(byte[] body) throws Exception {
        ObjectWriter w = DecisionResource.WRITER;
        return new String(w.writeValueAsBytes(DecisionResponse.of(engine.decide(
                KubeMapper.toDecisionRequest(codec.readJson(body))))), StandardCharsets.UTF_8);
    }

    static String post(String path, byte[] body) {
        return given().contentType(ContentType.JSON).body(body).when().post(path)
                .then().statusCode(200).contentType(ContentType.JSON).extract().asString();
    }

    @Test
    void everyPathDecidesTheSameBytesAsTheInProcessPipeline() throws Exception {
        byte[] body = RestEndpointsTest.trainingJob();
        String expected = inProcess(body);
        assertThat(expected).contains("\"outcome\"");
        long readWhole = LargeBodies.READ_WHOLE.get();
        long adoptedSmall = LargeBodies.ADOPTED.get();
        assertThat(post("/v1/decisions", body)).isEqualTo(expected);
        assertThat(LargeBodies.READ_WHOLE.get()).as("the small body was read into one array before the resource ran")
                .isEqualTo(readWhole + 1);
        assertThat(LargeBodies.ADOPTED.get()).as("... which BodyCapture filled off the socket").isEqualTo(adoptedSmall + 1);
        assertThat(post("/v1/decisions", padded(body, 100 * 1024))).isEqualTo(expected);
        long adopted = LargeBodies.ADOPTED.get();
        assertThat(post("/v1/decisions", padded(body, 1536 * 1024))).isEqualTo(expected);
        assertThat(LargeBodies.ADOPTED.get()).as("the large body landed in BodyCapture's array, not copied again")
                .isEqualTo(adopted + 1);
    }

    /**
     * Two large bodies pipelined on one connection: the second arrives (partly or whole) while the first is decided,
     * before its route has run; whichever array each lands in, both answers are the in-process ones.
     */
    @Test
    void pipelinedLargeBodiesOnOneConnectionDecideTheSameBytes() throws Exception {
        byte[] first = padded(RestEndpointsTest.trainingJob(), 2 * 1024 * 1024 + 3);
        byte[] second = padded(RestEndpointsTest.trainingJob(), 3 * 1024 * 1024 + 11);
        String expected = inProcess(second);
        long adopted = LargeBodies.ADOPTED.get();
        String answers = RawHttp.pipelined(io.restassured.RestAssured.port, "/v1/validations", first,
                "/v1/decisions", second);
        assertThat(answers).startsWith("HTTP/1.1 200").contains("{\"valid\":true}HTTP/1.1 200").endsWith(expected);
        assertThat(LargeBodies.ADOPTED.get()).as("the first body, at least, was not copied again")
                .isGreaterThan(adopted);
    }

    /**
     * Small bodies: pipelined on one connection (the second may arrive with the first), chunked (no Content-Length:
     * Quarkus REST buffers it), and after Expect: 100-continue.
     */
    @Test
    void aSmallBodyOnEveryWayInDecidesTheSameBytes() throws Exception {
        byte[] body = RestEndpointsTest.trainingJob();
        assertThat(body.length).isLessThan(64 * 1024);
        String expected = inProcess(body);
        int port = io.restassured.RestAssured.port;
        String answers = RawHttp.pipelined(port, "/v1/validations", body, "/v1/decisions", body);
        assertThat(answers).startsWith("HTTP/1.1 200").contains("{\"valid\":true}HTTP/1.1 200").endsWith(expected);
        assertThat(RawHttp.postChunked(port, "/v1/decisions", body, 1_000)).startsWith("HTTP/1.1 200")
                .endsWith(expected);
        assertThat(RawHttp.postExpectingContinue(port, "/v1/decisions", body)).startsWith("HTTP/1.1 200")
                .endsWith(expected);
    }

    @Test
    void aLargeBodyReadWholeOrStreamedDecidesTheSameBytes() throws Exception {
        byte[] body = padded(RestEndpointsTest.trainingJob(), 3 * 1024 * 1024 + 7);
        String expected = inProcess(body);
        int port = io.restassured.RestAssured.port;
        String streamed = RawHttp.postChunked(port, "/v1/decisions", body, 50_000);
        assertThat(streamed).startsWith("HTTP/1.1 200").endsWith(expected);
        String whole = RawHttp.post(port, "/v1/decisions", "Content-Length: " + body.length,
                new String(body, StandardCharsets.UTF_8));
        assertThat(whole).startsWith("HTTP/1.1 200").endsWith(expected);
    }

    @Test
    void aLargeBodyAfterExpectContinueIsAnsweredWithoutTheClientWaiting() throws Exception {
        byte[] body = padded(RestEndpointsTest.trainingJob(), 2 * 1024 * 1024);
        String answer = RawHttp.postExpectingContinue(io.restassured.RestAssured.port, "/v1/validations", body);
        assertThat(answer).startsWith("HTTP/1.1 200").endsWith("{\"valid\":true}");
    }

    @Test
    void aLongAnswerWrittenWhileDecidingIsTheInProcessBytes() throws Exception {
        byte[] body = plainPods(40, 3 * StreamedAnswer.START);
        String expected = inProcess(body);
        long before = StreamedAnswer.WRITTEN_BY_HELPER.get();
        org.assertj.core.api.Assertions.assertThat(post("/v1/decisions", body)).isEqualTo(expected);
        org.assertj.core.api.Assertions.assertThat(StreamedAnswer.WRITTEN_BY_HELPER.get())
                .as("answers a helper wrote").isEqualTo(before + 1);
        org.assertj.core.api.Assertions.assertThat(expected).contains("\"outcome\":\"Scheduled\"")
                .contains("\"outcome\":\"Unschedulable\"");
    }

    /** {@code nodes} nodes of 4 CPUs and {@code pods} pending plain pods of 300m each: more than the nodes hold. */
    static byte[] plainPods(int nodes, int pods) {
        StringBuilder b = new StringBuilder("{\"snapshot\":{\"nodes\":[");
        for (int i = 0; i < nodes; i++) {
            b.append(i == 0 ? "" : ",").append("{\"metadata\":{\"name\":\"node-").append(i)
                    .append("\"},\"status\":{\"allocatable\":{\"cpu\":\"4\",\"memory\":\"16Gi\",\"pods\":\"110\"}}}");
        }
        b.append("],\"pods\":[");
        for (int i = 0; i < pods; i++) {
            b.append(i == 0 ? "" : ",").append("{\"metadata\":{\"namespace\":\"batch\",\"name\":\"job-").append(i)
                    .append("\",\"uid\":\"u-").append(i).append("\"},\"spec\":{\"containers\":[{\"name\":\"c\",")
                    .append("\"resources\":{\"requests\":{\"cpu\":\"300m\",\"memory\":\"1Gi\"}}}]}}");
        }
        return b.append("]}}").toString().getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void everyPathValidates() throws Exception {
        byte[] body = RestEndpointsTest.trainingJob();
        for (int size : new int[]{body.length, 100 * 1024, 1536 * 1024}) {
            assertThat(post("/v1/validations", padded(body, size))).isEqualTo("{\"valid\":true}");
        }
    }

    @Test
    void anInvalidRequestIsTheSameStatusOnEveryPath() throws Exception {
        byte[] body = ("{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n1\"}},{\"metadata\":{\"name\":\"n1\"}}]}}")
                .getBytes(StandardCharsets.UTF_8);
        String first = null;
        for (int size : new int[]{body.length, 100 * 1024, 1536 * 1024}) {
            String answer = given().contentType(ContentType.JSON).body(padded(body, size)).when().post("/v1/decisions")
                    .then().statusCode(422).contentType(ContentType.JSON).extract().asString();
            assertThat(answer).contains("\"reason\":\"Invalid\"");
            if (first == null) {
                first = answer;
            }
            assertThat(answer).isEqualTo(first);
        }
    }
}
