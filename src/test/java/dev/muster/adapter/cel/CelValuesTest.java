package dev.muster.adapter.cel;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CelValuesTest {
    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "80Gi, 85899345920",
            "1.5Gi, 1610612736",
            "500m, 0.5",
            "-2k, -2000",
            "1e3, 1000",
            "1E-2, 0.01",
            "+.5, 0.5",
            "5., 5",
            "0.0000000001, 0.000000001",
            "-0.0000000001, -0.000000001",
            "2E, 2000000000000000000",
            "0, 0"})
    void quantities(String text, String exact) {
        assertThat(QuantityValue.parse(text).value()).isEqualByComparingTo(new BigDecimal(exact));
        assertThat(QuantityValue.parse(text)).isEqualTo(QuantityValue.of(new BigDecimal(exact)));
    }

    @ParameterizedTest
    @CsvSource({"''", "1X", "Gi", "1.2.3", "1e", "1 Gi", "1e5000"})
    void notQuantities(String text) {
        assertThat(QuantityValue.isQuantity(text)).isFalse();
        assertThatThrownBy(() -> QuantityValue.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} vs {1}")
    @CsvSource({
            "1.0.0, 2.0.0, -1",
            "1.2.3, 1.2.3+build.7, 0",
            "1.0.0-alpha, 1.0.0, -1",
            "1.0.0-alpha, 1.0.0-alpha.1, -1",
            "1.0.0-alpha.1, 1.0.0-alpha.beta, -1",
            "1.0.0-beta.2, 1.0.0-beta.11, -1",
            "1.0.0-rc.1, 1.0.0-beta.11, 1",
            "550.54.15, 535.0.0, 1"})
    void semverPrecedence(String a, String b, int sign) {
        assertThat(Integer.signum(SemverValue.parse(a).compareTo(SemverValue.parse(b)))).isEqualTo(sign);
        assertThat(SemverValue.parse(a).equals(SemverValue.parse(b))).isEqualTo(sign == 0);
    }

    @ParameterizedTest
    @CsvSource({
            "1.0, No Major.Minor.Patch elements found",
            "01.0.0, Major number must not contain leading zeroes \"01\"",
            "1.a.0, Invalid character(s) found in minor number \"a\"",
            "1.0.0-01, Leading zeroes are not allowed for numeric prerelease versions \"01\"",
            "1.0.0+, Build meta data is empty",
            "v1.0.0, Invalid character(s) found in major number \"v1\""})
    void semverErrors(String text, String message) {
        assertThatThrownBy(() -> SemverValue.parse(text)).hasMessage(message);
        // remembered texts are valid ones only: an invalid one fails every time, with the same message
        assertThatThrownBy(() -> SemverValue.parseShared(text)).hasMessage(message);
        assertThatThrownBy(() -> SemverValue.parseShared(text)).hasMessage(message);
        assertThat(CelSelectors.isSemanticVersion(text)).isFalse();
    }

    @Test
    void aVersionTextIsParsedOnceAndSharedAfter() {
        SemverValue first = SemverValue.parseShared("535.104.12-rc.1+build.7");
        assertThat(SemverValue.parseShared(new String("535.104.12-rc.1+build.7"))).isSameAs(first)
                .isEqualTo(SemverValue.parse("535.104.12-rc.1+build.7"));
        assertThat(CelSelectors.isSemanticVersion("535.104.12-rc.1+build.7")).isTrue();
    }

    @ParameterizedTest
    @CsvSource({"v1.2, 1.2.0", "1, 1.0.0", "01.02.03, 1.2.3", "v1.0.0-rc.1, 1.0.0-rc.1"})
    void semverNormalized(String text, String normal) {
        assertThat(SemverValue.parseNormalized(text)).isEqualTo(SemverValue.parse(normal));
    }
}
