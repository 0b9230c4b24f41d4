package dev.muster.adapter.kube;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.OffsetDateTime;

import static org.assertj.core.api.Assertions.assertThat;

class TimestampsTest {
    @ParameterizedTest
    @ValueSource(strings = {"1970-01-01T00:00:00Z", "2026-04-22T10:15:30Z", "2024-02-29T23:59:59Z",
            "1999-12-31T00:00:01Z", "2026-04-22T10:15:30.123Z", "2026-04-22T12:15:30+02:00"})
    void agreesWithJavaTime(String s) {
        assertThat(Timestamps.epochSeconds(s)).isEqualTo(OffsetDateTime.parse(s).toEpochSecond());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-02-30T00:00:00Z", "yesterday", "2026-04-22 10:15:30Z", "2026-13-01T00:00:00Z"})
    void rejectsWhatIsNotRfc3339(String s) {
        assertThat(Timestamps.isValid(s)).isFalse();
    }
}
