package dev.muster.adapter.rest;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

/** {@code kubectl get pods -o json|yaml} sent as the body: a 422 on {@code snapshot} saying where the pods go. */
@QuarkusTest
class PastedListEndpointTest {
    private static final String WHERE = "a List of Pod objects belongs in snapshot.pods";

    @Test
    void aKubectlJsonListIsA422SayingWhereItBelongs() {
        String body = "{\"apiVersion\":\"v1\",\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":"
                + "{\"name\":\"p\",\"namespace\":\"ns\"}}],\"kind\":\"List\",\"metadata\":{\"resourceVersion\":\"\"}}";
        for (String path : List.of("/v1/validations", "/v1/decisions")) {
            given().contentType(ContentType.JSON).body(body)
                    .when().post(path)
                    .then().statusCode(422)
                    .body("reason", equalTo("Invalid"))
                    .body("details.causes", hasSize(1))
                    .body("details.causes[0].reason", equalTo("FieldValueRequired"))
                    .body("details.causes[0].field", equalTo("snapshot"))
                    .body("details.causes[0].message", startsWith("the body is a kubectl List (\"kind\": \"List\") "
                            + "of Pod objects, not a request: " + WHERE));
        }
    }

    @Test
    void aKubectlYamlListIsA422SayingWhereItBelongs() {
        String body = "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: p\nkind: List\n";
        given().contentType("application/yaml").body(body.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .when().post("/v1/decisions")
                .then().statusCode(422)
                .body("details.causes[0].field", equalTo("snapshot"))
                .body("message", startsWith("request is invalid: snapshot: Required value: the body is a kubectl List"));
    }
}
