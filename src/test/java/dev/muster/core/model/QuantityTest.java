package dev.muster.core.model;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QuantityTest {

    @ParameterizedTest(name = "{0}: milli {1}, value {2}")
    @CsvSource({
            "500m, 500, 1",
            "2, 2000, 2",
            "100, 100000, 100",
            "0.1, 100, 1",
            "1.5, 1500, 2",
            ".5, 500, 1",
            "5., 5000, 5",
            "1e3, 1000000, 1000",
            "2E6, 2000000000, 2000000",
            "1e-3, 1, 1",
            "1E+2, 100000, 100",
            "1Ki, 1024000, 1024",
            "1.5Gi, 1610612736000, 1610612736",
            "4Gi, 4294967296000, 4294967296",
            "100Mi, 104857600000, 104857600",
            "1Ti, 1099511627776000, 1099511627776",
            "1Pi, 1125899906842624000, 1125899906842624",
            "1Ei, 9223372036854775807, 1152921504606846976",
            "1n, 1, 1",
            "1500n, 1, 1",
            "250u, 1, 1",
            "1k, 1000000, 1000",
            "3M, 3000000000, 3000000",
            "1G, 1000000000000, 1000000000",
            "1T, 1000000000000000, 1000000000000",
            "1P, 1000000000000000000, 1000000000000000",
            "1E, 9223372036854775807, 1000000000000000000",
            "0, 0, 0",
            "0m, 0, 0",
            "+3, 3000, 3",
            "-1, -1000, -1",
            "-500m, -500, 0",
            "0.0001, 1, 1",
            "123456789012345678901234, 9223372036854775807, 9223372036854775807",
            "1e400, 9223372036854775807, 9223372036854775807",
            "1e-400, 1, 1",
            "0.000000000000000000001, 1, 1",
    })
    void parsesExactlyAndRoundsUp(String text, long milli, long value) {
        assertThat(Quantity.milliValue(text)).isEqualTo(milli);
        assertThat(Quantity.value(text)).isEqualTo(value);
    }

    @ParameterizedTest(name = "\"{0}\" is not a quantity")
    @ValueSource(strings = {"", "abc", "1K", "1kb", "1Gb", "m", ".", "1..2", "1.2.3", "1e", "1e+", "1 Gi", " 1",
            "1Gi ", "1mi", "--1", "1e3.5", "0x10", "1Kii", "Gi"})
    void rejectsMalformedStrings(String text) {
        assertThatThrownBy(() -> Quantity.value(text))
                .isInstanceOf(QuantityFormatException.class)
                .hasMessageContaining("quantities must match the regular expression");
        assertThat(Quantity.isValid(text)).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"-1, true", "-0, false", "1, false", "-1m, true", "0, false"})
    void knowsNegativeQuantities(String text, boolean negative) {
        assertThat(Quantity.isNegative(text)).isEqualTo(negative);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({"500m, 0.5", "2, 2", "1.5Gi, 1610612736", "-1.5k, -1500", "1e-3, 0.001", "+4Mi, 4194304", ".5, 0.5",
            "5., 5", "0, 0", "-0, 0", "1n, 0.000000001", "2E6, 2000000", "123456789012345678901234, 123456789012345678901234"})
    void givesExactValues(String text, String exact) {
        assertThat(Quantity.exact(text)).isEqualByComparingTo(new java.math.BigDecimal(exact));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "1Qi", "1e999"})
    void exactRejectsMalformedText(String text) {
        assertThatThrownBy(() -> Quantity.exact(text)).isInstanceOf(QuantityFormatException.class);
    }
}
