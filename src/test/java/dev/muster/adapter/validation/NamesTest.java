package dev.muster.adapter.validation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class NamesTest {
    @ParameterizedTest(name = "\"{0}\": label {1}, subdomain {2}, qualified {3}")
    @CsvSource({
            "my-name, true, true, true",
            "123-abc, true, true, true",
            "a, true, true, true",
            "example.com, false, true, true",
            "-a, false, false, false",
            "a-, false, false, false",
            "A, false, false, true",
            "a_b, false, false, true",
            "a..b, false, false, true",
            "example.com/gate, false, false, true",
            "Example.com/gate, false, false, false",
            "/gate, false, false, false",
            "example.com/, false, false, false",
            "a/b/c, false, false, false",
            "'', false, false, false",
            "abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij, false, true, false",
            "example.com/abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij, false, false, false",
            "example.com/abcdefghij-abcdefghij-abcdefghij-abcdefghij-abcdefghij-abc, false, false, true",
            "a.-b/gate, false, false, false",
            "example.com/-gate, false, false, false",
            "example.com/ga$te, false, false, false",
            "ex_ample.com/gate, false, false, false",
            ".a, false, false, false",
            "a., false, false, false",
            "a-.b, false, false, true",
            "a.b-, false, false, false",
            "a--b.c--d, false, true, true",
            "a.b.c, false, true, true",
            "a/b, false, false, true",
            "a-/b, false, false, false",
    })
    void checksKubernetesNameFormats(String s, boolean label, boolean subdomain, boolean qualified) {
        assertThat(Names.isDnsLabel(s)).isEqualTo(label);
        assertThat(Names.isDnsSubdomain(s)).isEqualTo(subdomain);
        assertThat(Names.isQualifiedName(s)).isEqualTo(qualified);
    }

    @Test
    void aQualifiedNamePrefixIsAtMost253Characters() {
        String label = "a".repeat(63);
        String prefix253 = label + "." + label + "." + label + "." + "a".repeat(61);
        assertThat(prefix253).hasSize(253);
        assertThat(Names.isQualifiedName(prefix253 + "/name")).isTrue();
        assertThat(Names.isQualifiedName("b" + prefix253 + "/name")).isFalse();
        assertThat(Names.isDnsSubdomain(prefix253)).isTrue();
        assertThat(Names.isDnsSubdomain(prefix253 + "b")).isFalse();
    }
}
