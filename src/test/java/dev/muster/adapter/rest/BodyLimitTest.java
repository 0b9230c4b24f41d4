package dev.muster.adapter.rest;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/** A small body limit, so that both ways of sending too much are answered with a 413 Status. */
@QuarkusTest
@TestProfile(BodyLimitTest.SmallLimit.class)
class BodyLimitTest {
    public static class SmallLimit implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.limits.max-body-size", "4K");
        }
    }

    @Test
    void aBodyOverTheLimitWithContentLengthIsATooLargeStatus() {
        String big = "{\"snapshot\":{\"nodes\":[]}}" + " ".repeat(8 * 1024);
        given().contentType(ContentType.JSON).body(big)
                .when().post("/v1/decisions")
                .then().statusCode(413).contentType(ContentType.JSON)
                .body("kind", equalTo("Status")).body("reason", equalTo("RequestEntityTooLarge")).body("code", equalTo(413));
    }

    @Test
    void aChunkedBodyOverTheLimitIsATooLargeStatus() throws Exception {
        String answer = RawHttp.postChunked(io.restassured.RestAssured.port, "/v1/decisions", 16, 1024);
        assertThat(answer).startsWith("HTTP/1.1 413");
        assertThat(answer).contains("\"kind\":\"Status\"").contains("\"code\":413");
    }

    @Test
    void aBodyUnderTheLimitIsRead() {
        given().contentType(ContentType.JSON).body("{\"snapshot\":{\"nodes\":[]}}")
                .when().post("/v1/validations").then().statusCode(200);
    }
}
