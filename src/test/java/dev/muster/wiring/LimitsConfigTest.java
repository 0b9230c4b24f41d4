package dev.muster.wiring;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * The {@code muster.limits.*} keys reach the codec and the validator through configuration: with small values, a
 * request just over each limit gets the documented 4xx Status naming the field or the limit.
 */
@QuarkusTest
@TestProfile(LimitsConfigTest.SmallLimits.class)
class LimitsConfigTest {
    public static class SmallLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.limits.max-nodes", "2",
                    "muster.limits.max-nesting-depth", "16",
                    "muster.limits.max-string-length", "1024",
                    "muster.limits.max-number-length", "20",
                    "muster.limits.max-causes", "1");
        }
    }

    static String node(String name) {
        return "{\"metadata\":{\"name\":\"" + name + "\"},\"status\":{\"allocatable\":{\"cpu\":\"4\"}}}";
    }

    @Test
    void moreNodesThanMaxNodesIsA422NamingTheList() {
        given().contentType(ContentType.JSON)
                .body("{\"snapshot\":{\"nodes\":[" + node("a") + "," + node("b") + "," + node("c") + "]}}")
                .post("/v1/validations")
                .then().statusCode(422).body("reason", equalTo("Invalid"))
                .body("details.causes[0].reason", equalTo("FieldValueTooMany"))
                .body("details.causes[0].field", equalTo("snapshot.nodes"));
        given().contentType(ContentType.JSON).body("{\"snapshot\":{\"nodes\":[" + node("a") + "," + node("b") + "]}}")
                .post("/v1/validations").then().statusCode(200);
    }

    @Test
    void aStringOverMaxStringLengthIsA400() {
        String longName = "a".repeat(1025);
        given().contentType(ContentType.JSON).body("{\"snapshot\":{\"nodes\":[" + node(longName) + "]}}")
                .post("/v1/validations")
                .then().statusCode(400).body("reason", equalTo("BadRequest"))
                .body("message", startsWith("snapshot.nodes[0].metadata.name: "))
                .body("message", containsString("exceeds the maximum allowed (1024"));
    }

    @Test
    void aNumberOverMaxNumberLengthIsA400() {
        given().contentType(ContentType.JSON)
                .body("{\"snapshot\":{\"nodes\":[]},\"options\":{\"x\":" + "1".repeat(21) + "}}")
                .post("/v1/validations")
                .then().statusCode(400).body("reason", equalTo("BadRequest"));
    }

    @Test
    void nestingDeeperThanMaxNestingDepthIsA400() {
        String deep = "[".repeat(17) + "]".repeat(17);
        given().contentType(ContentType.JSON).body("{\"snapshot\":{\"nodes\":[]},\"extra\":" + deep + "}")
                .post("/v1/validations")
                .then().statusCode(400).body("reason", equalTo("BadRequest"))
                .body("message", containsString("limit"));
    }

    @Test
    void onlyMaxCausesAreListedAndTheRestCounted() {
        String bad = "{\"metadata\":{\"name\":\"Bad_Name\"}}";
        given().contentType(ContentType.JSON).body("{\"snapshot\":{\"nodes\":[" + bad + "," + bad.replace("Bad", "Worse")
                        + "]}}")
                .post("/v1/validations")
                .then().statusCode(422).body("details.causes.size()", equalTo(1))
                .body("message", containsString("more"));
    }
}
