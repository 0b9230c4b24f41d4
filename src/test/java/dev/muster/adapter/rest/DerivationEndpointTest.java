package dev.muster.adapter.rest;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/** {@code POST /v1/derivations} over HTTP: answers, 422 with the field path, 400 for a wrong type. */
@QuarkusTest
class DerivationEndpointTest {
    @Test
    void aQualifyingJobGetsItsObjects() {
        given().contentType(ContentType.JSON)
                .body("{\"jobs\":[{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":{\"name\":\"train\","
                        + "\"namespace\":\"ml\",\"uid\":\"u-1\"},\"spec\":{\"parallelism\":2,\"completions\":2,"
                        + "\"completionMode\":\"Indexed\"}}]}")
                .when().post("/v1/derivations")
                .then().statusCode(200)
                .body("derivations[0].job.name", equalTo("train"))
                .body("derivations[0].qualifies", equalTo(true))
                .body("derivations[0].workload.spec.podGroupTemplates[0].schedulingPolicy.gang.minCount", equalTo(2))
                .body("derivations[0].podGroup.metadata.name", startsWith("train-"));
    }

    @Test
    void anInvalidJobIsA422WithItsFieldPath() {
        given().contentType(ContentType.JSON)
                .body("{\"jobs\":[{\"metadata\":{\"name\":\"j\"},\"spec\":{\"completionMode\":\"Sorted\"}}]}")
                .when().post("/v1/derivations")
                .then().statusCode(422)
                .body("details.causes[0].reason", equalTo("FieldValueNotSupported"))
                .body("details.causes[0].field", equalTo("jobs[0].spec.completionMode"));
    }

    @Test
    void aWrongTypeIsABadRequest() {
        given().contentType(ContentType.JSON)
                .body("{\"jobs\":[{\"metadata\":{\"name\":\"j\"},\"spec\":{\"parallelism\":\"2\"}}]}")
                .when().post("/v1/derivations")
                .then().statusCode(400).body("reason", equalTo("BadRequest"));
        given().contentType(ContentType.JSON).body("{}")
                .when().post("/v1/derivations")
                .then().statusCode(422).body("details.causes[0].field", equalTo("jobs"));
    }
}
