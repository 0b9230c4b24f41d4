package dev.muster.deploy;

import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * The packaged application (the fast-jar from {@code package}; the native executable with {@code -Dnative}) started
 * as a process, as a container would: health, one decision, one validation error. Run by failsafe in {@code verify}.
 */
@QuarkusIntegrationTest
class PackagedAppIT {

    @Test
    void healthProbesAnswerUp() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.name", hasItem("decision-engine"))
                .body("checks.name", hasItem("cluster-view"));
    }

    @Test
    void theTrainingJobIsScheduled() throws Exception {
        given().contentType(ContentType.JSON).body(Files.readAllBytes(Path.of("openapi/examples/training-job.json")))
                .when().post("/v1/decisions")
                .then().statusCode(200).contentType(ContentType.JSON)
                .body("decisions[0].podGroup.name", equalTo("training-job-workers-pg"))
                .body("decisions[0].outcome", equalTo("Scheduled"));
    }

    @Test
    void aMissingSnapshotIsAnInvalidStatusNamingTheField() {
        given().contentType(ContentType.JSON).body("{}")
                .when().post("/v1/validations")
                .then().statusCode(422).contentType(ContentType.JSON)
                .body("kind", equalTo("Status")).body("reason", equalTo("Invalid"))
                .body("details.causes[0].field", equalTo("snapshot"))
                .body("details.causes[0].reason", equalTo("FieldValueRequired"));
    }
}
