package dev.muster.adapter.rest;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committed REST contract ({@code openapi/muster.yaml}) is the served one. When an intended change makes this
 * fail, regenerate the file and review the diff:
 * {@code mvn -o test -Dtest=OpenApiDriftTest -Dopenapi.update=true} (not {@code muster.*}: the validated
 * {@code @ConfigMapping(prefix = "muster")} rejects unknown {@code muster.} properties, which catches typos).
 */
@QuarkusTest
class OpenApiDriftTest {
    private static final Path COMMITTED = Path.of("openapi/muster.yaml");

    @Test
    void theServedOpenApiDocumentIsTheCommittedOne() throws Exception {
        String served = given().when().get("/q/openapi?format=yaml").then().statusCode(200).extract().asString();
        if (Boolean.getBoolean("openapi.update")) {
            Files.writeString(COMMITTED, served, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(COMMITTED))
                .as("openapi/muster.yaml is missing: run mvn -o test -Dtest=OpenApiDriftTest -Dopenapi.update=true")
                .isTrue();
        String committed = Files.readString(COMMITTED, StandardCharsets.UTF_8);
        assertThat(served)
                .as("the served OpenAPI document differs from openapi/muster.yaml; if the change is intended, run "
                        + "mvn -o test -Dtest=OpenApiDriftTest -Dopenapi.update=true and review the diff")
                .isEqualTo(committed);
    }

    @Test
    void swaggerUiIsServed() {
        given().when().get("/q/swagger-ui/").then().statusCode(200);
    }
}
