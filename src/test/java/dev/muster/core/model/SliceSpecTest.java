package dev.muster.core.model;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SliceSpecTest {

    @Test
    void parsesLayersOutermostFirstIgnoringSpaces() {
        SliceSpec s = SliceSpec.parse(" example.com/block = 8 , topology.kubernetes.io/rack=4 ");
        assertThat(s.layers()).containsExactly(new SliceSpec.Layer("example.com/block", 8),
                new SliceSpec.Layer("topology.kubernetes.io/rack", 4));
        assertThat(s.outerSize()).isEqualTo(8);
    }

    @Test
    void anAbsentAnnotationIsNoSpec() {
        assertThat(SliceSpec.of(Map.of())).isNull();
        assertThat(SliceSpec.of(Map.of(SliceSpec.ANNOTATION, "rack=2")).outerSize()).isEqualTo(2);
    }

    @Test
    void eachRuleNamesItself() {
        assertThatThrownBy(() -> SliceSpec.parse("rack=0")).hasMessageContaining("greater than or equal to 1");
        assertThatThrownBy(() -> SliceSpec.parse("rack=99999999999")).hasMessageContaining("integer of at least 1");
        assertThatThrownBy(() -> SliceSpec.parse("rack=4,rack=2")).hasMessageContaining("named twice");
        assertThatThrownBy(() -> SliceSpec.parse("block=6,rack=4")).hasMessageContaining("must divide");
        assertThatThrownBy(() -> SliceSpec.parse("rack=4,")).hasMessageContaining("must be `<label key>=<size>`");
    }
}
