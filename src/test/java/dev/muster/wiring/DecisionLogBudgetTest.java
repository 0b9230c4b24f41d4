package dev.muster.wiring;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With a budget of one decision line a second, a burst of decisions writes one line and the rest are told in one line
 * by the service's timer, though no decision follows them; every decision is accounted for.
 */
@QuarkusTest
@TestProfile(DecisionLogBudgetTest.OneLineASecond.class)
class DecisionLogBudgetTest {
    public static class OneLineASecond implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("muster.log.decisions-per-second", "1");
        }
    }

    private static final Pattern HELD = Pattern.compile("Decisions: (\\d+) more not logged one by one \\((\\d+) "
            + "Scheduled\\): over 1 line a second \\(muster\\.log\\.decisions-per-second\\)");

    @Test
    void aBurstPastTheBudgetIsToldWithoutAnotherDecision() throws Exception {
        int burst = 6;
        try (LogCapture capture = LogCapture.of(DecisionLog.CATEGORY)) {
            List<String> lines = capture.messages();
            byte[] body = Files.readAllBytes(Path.of("openapi/examples/training-job.json"));
            for (int i = 0; i < burst; i++) {
                given().contentType(ContentType.JSON).body(body).when().post("/v1/decisions").then().statusCode(200);
            }
            // the timer looks every second; wait for the count (bounded, not a timing assertion)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (told(lines) + written(lines) < burst && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(written(lines)).as("lines: %s", lines).isBetween(1, burst - 1);
            assertThat(told(lines)).as("lines: %s", lines).isEqualTo(burst - written(lines));
        }
    }
    /** Decisions written one by one. */
    private static int written(List<String> lines) {
        return (int) lines.stream().filter(l -> l.startsWith("PodGroup ")).count();
    }

    /** Decisions told as held back. */
    private static int told(List<String> lines) {
        int n = 0;
        for (String l : lines) {
            Matcher m = HELD.matcher(l);
            if (m.matches()) {
                assertThat(m.group(2)).isEqualTo(m.group(1));
                n += Integer.parseInt(m.group(1));
            }
        }
        return n;
    }
}
