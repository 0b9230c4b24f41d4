package dev.muster.adapter.rest;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

@QuarkusTest
class RestEndpointsTest {
    static byte[] trainingJob() throws Exception {
        return Files.readAllBytes(Path.of("openapi/examples/training-job.json"));
    }

    static byte[] trainingJobYaml() throws Exception {
        return RestEndpointsTest.class.getResourceAsStream("/training-job.yaml").readAllBytes();
    }

    @Test
    void aValidRequestValidates() throws Exception {
        given().contentType(ContentType.JSON).body(trainingJob())
                .when().post("/v1/validations")
                .then().statusCode(200).contentType(ContentType.JSON).body(equalTo("{\"valid\":true}"));
    }

    @Test
    void aYamlRequestValidatesUnderEveryYamlMediaType() throws Exception {
        for (String type : new String[]{"application/yaml", "application/x-yaml", "text/yaml"}) {
            given().contentType(type).body(trainingJobYaml())
                    .when().post("/v1/validations")
                    .then().statusCode(200).body("valid", equalTo(true));
        }
    }

    @Test
    void decisionsAnswerTheContractShapeAndTheSameBytesTwice() throws Exception {
        String first = given().contentType(ContentType.JSON).body(trainingJob())
                .when().post("/v1/decisions")
                .then().statusCode(200).contentType(ContentType.JSON)
                .body("decisions", notNullValue()).body("pods", notNullValue())
                .extract().asString();
        String second = given().contentType("application/yaml").body(trainingJobYaml())
                .when().post("/v1/decisions").then().statusCode(200).extract().asString();
        org.assertj.core.api.Assertions.assertThat(second).isEqualTo(first);
    }

    @Test
    void aStringForAnIntegerIsABadRequestStatus() {
        given().contentType(ContentType.JSON)
                .body("{\"snapshot\":{\"nodes\":[],\"podGroups\":[{\"metadata\":{\"name\":\"pg\"},\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minCount\":\"2\"}}}}]}}")
                .when().post("/v1/decisions")
                .then().statusCode(400).contentType(ContentType.JSON)
                .body("kind", equalTo("Status")).body("apiVersion", equalTo("v1")).body("status", equalTo("Failure"))
                .body("reason", equalTo("BadRequest")).body("code", equalTo(400))
                .body("message", startsWith("snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount: "))
                .body("details.causes[0].field", equalTo("snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount"));
    }

    @Test
    void trailingBytesAndBadUtf8AreBadRequests() {
        given().contentType(ContentType.JSON).body("{\"snapshot\":{\"nodes\":[]}} trailing")
                .when().post("/v1/validations").then().statusCode(400).body("reason", equalTo("BadRequest"));
        byte[] bad = "{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n\u00e9\"}}]}}".getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bad.length; i++) {
            if (bad[i] == (byte) 0xC3) {
                bad[i + 1] = (byte) 0x28; // broken continuation byte
            }
        }
        given().contentType(ContentType.JSON).body(bad)
                .when().post("/v1/validations").then().statusCode(400).body("message", containsString("UTF-8"));
        given().contentType(ContentType.JSON).body("not json")
                .when().post("/v1/validations").then().statusCode(400).body("kind", equalTo("Status"));
    }

    @Test
    void brokenInvariantsAreOneInvalidStatusWithEveryCause() {
        String body = "{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n1\"}},{\"metadata\":{\"name\":\"n1\"}}],"
                + "\"pods\":[{\"metadata\":{\"name\":\"p\"},\"spec\":{\"schedulingGroup\":{}}}],"
                + "\"podGroups\":[{\"metadata\":{\"name\":\"pg\"},\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minCount\":-1}}}}]}}";
        given().contentType(ContentType.JSON).body(body)
                .when().post("/v1/decisions")
                .then().statusCode(422).contentType(ContentType.JSON)
                .body("kind", equalTo("Status")).body("apiVersion", equalTo("v1")).body("metadata.size()", equalTo(0))
                .body("status", equalTo("Failure")).body("reason", equalTo("Invalid")).body("code", equalTo(422))
                .body("message", startsWith("request is invalid: [snapshot.nodes[1].metadata.name: Duplicate value: \"n1\", "))
                .body("details.causes", hasSize(3))
                .body("details.causes[0].reason", equalTo("FieldValueDuplicate"))
                .body("details.causes[0].field", equalTo("snapshot.nodes[1].metadata.name"))
                .body("details.causes[1].reason", equalTo("FieldValueRequired"))
                .body("details.causes[1].field", equalTo("snapshot.pods[0].spec.schedulingGroup.podGroupName"))
                .body("details.causes[1].message", equalTo("exactly one of podGroupName must be set"))
                .body("details.causes[2].reason", equalTo("FieldValueInvalid"))
                .body("details.causes[2].field", equalTo("snapshot.podGroups[0].spec.schedulingPolicy.gang.minCount"))
                .body("details.causes[2].message", equalTo("must be greater than or equal to 1"));
    }

    @Test
    void aMissingSnapshotIsInvalidNotBad() {
        given().contentType(ContentType.JSON).body("{}")
                .when().post("/v1/validations")
                .then().statusCode(422).body("details.causes[0].field", equalTo("snapshot"))
                .body("details.causes[0].reason", equalTo("FieldValueRequired"));
    }

    @Test
    void anUnsupportedMediaTypeIsAStatus() {
        given().contentType("text/plain").body("snapshot")
                .when().post("/v1/decisions")
                .then().statusCode(415).contentType(ContentType.JSON)
                .body("kind", equalTo("Status")).body("reason", equalTo("UnsupportedMediaType")).body("code", equalTo(415));
    }

    @Test
    void unknownPathsAndWrongMethodsAreStatuses() {
        given().when().get("/v1/nothing-here")
                .then().statusCode(404).contentType(ContentType.JSON)
                .body("kind", equalTo("Status")).body("reason", equalTo("NotFound")).body("code", equalTo(404));
        given().when().get("/v1/decisions")
                .then().statusCode(405).contentType(ContentType.JSON)
                .body("reason", equalTo("MethodNotAllowed")).body("code", equalTo(405)).body("details", nullValue());
    }

    @Test
    void aDeclaredBodyOverTheLimitIsRefusedUpFrontWithAStatus() throws Exception {
        String answer = RawHttp.post(io.restassured.RestAssured.port, "/v1/decisions", "Content-Length: " + (200L * 1024 * 1024), "{}");
        org.assertj.core.api.Assertions.assertThat(answer).startsWith("HTTP/1.1 413")
                .contains("\"kind\":\"Status\"").contains("\"reason\":\"RequestEntityTooLarge\"")
                .contains("\"code\":413");
    }

    @Test
    void healthAndMetricsAreServed() {
        given().when().get("/q/health/ready").then().statusCode(200)
                .body("checks.find { it.name == 'decision-engine' }.status", equalTo("UP"));
        given().when().get("/q/health/live").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"snapshot\":{\"nodes\":[]}}").post("/v1/decisions").then().statusCode(200);
        given().when().get("/q/metrics").then().statusCode(200)
                .body(containsString("scheduler_podgroup_schedule_attempts_total{"))
                .body(containsString("muster_decision_duration_seconds_count"));
    }
}
