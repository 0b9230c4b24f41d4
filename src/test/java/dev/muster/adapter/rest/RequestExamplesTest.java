package dev.muster.adapter.rest;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request examples (openapi/examples/) are served where the OpenAPI document's {@code externalValue}s point, and
 * the YAML one decides exactly as the JSON one does.
 */
@QuarkusTest
class RequestExamplesTest {
    @Test
    void everyExternalValueOfTheServedDocumentResolves() {
        String doc = given().when().get("/q/openapi").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("externalValue: (\\S+)").matcher(doc);
        List<String> values = m.results().map(r -> r.group(1).replace("\"", "")).distinct().toList();
        assertThat(values).containsExactlyInAnyOrder(ApiDocs.EXAMPLE, ApiDocs.EXAMPLE_YAML, ApiDocs.CHOICE_EXAMPLE);
        for (String v : values) {
            given().when().get(v).then().statusCode(200);
        }
    }

    @Test
    void theServedExamplesAreTheCommittedFiles() throws Exception {
        for (String name : new String[]{"training-job.json", "training-job.yaml", "cluster-choices.json"}) {
            byte[] served = given().when().get("/examples/" + name).then().statusCode(200).extract().asByteArray();
            assertThat(served).isEqualTo(Files.readAllBytes(Path.of("openapi/examples", name)));
        }
    }

    @Test
    void theYamlExampleDecidesAsTheJsonOne() throws Exception {
        String json = given().contentType("application/json")
                .body(Files.readAllBytes(Path.of("openapi/examples/training-job.json")))
                .when().post("/v1/decisions").then().statusCode(200).extract().asString();
        String yaml = given().contentType("application/yaml")
                .body(Files.readAllBytes(Path.of("openapi/examples/training-job.yaml")))
                .when().post("/v1/decisions").then().statusCode(200).extract().asString();
        assertThat(json).contains("\"outcome\":\"Scheduled\"");
        assertThat(yaml).isEqualTo(json);
    }
}
