package dev.muster.core.plugins.support;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class NormalizeScoresTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("the highest score becomes 100 and the rest scale with integer division",
                        new long[] {3, 2, 0}, false, new long[] {100, 66, 0}),
                Arguments.of("reversed, the lowest score becomes 100",
                        new long[] {3, 2, 0}, true, new long[] {0, 34, 100}),
                Arguments.of("all zero stays zero", new long[] {0, 0}, false, new long[] {0, 0}),
                Arguments.of("all zero reversed becomes all 100", new long[] {0, 0}, true, new long[] {100, 100}),
                Arguments.of("no scores is fine", new long[] {}, true, new long[] {}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void defaultNormalize(String name, long[] scores, boolean reverse, long[] expected) {
        NormalizeScores.defaultNormalize(scores, reverse);
        assertThat(scores).containsExactly(expected);
    }
}
