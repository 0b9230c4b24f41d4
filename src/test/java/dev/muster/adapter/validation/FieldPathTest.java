package dev.muster.adapter.validation;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FieldPathTest {
    @Test
    void rendersFieldsIndexesAndKeysOnlyWhenAsked() {
        FieldPath p = new FieldPath("snapshot").field(".pods").index(3).field(".spec.containers").index(0);
        assertThat(p.at(".resources.requests")).isEqualTo("snapshot.pods[3].spec.containers[0].resources.requests");
        p.field(".resources.limits").key("cpu");
        assertThat(p).hasToString("snapshot.pods[3].spec.containers[0].resources.limits[cpu]");
        assertThat(p.at(".ports", 12)).isEqualTo("snapshot.pods[3].spec.containers[0].resources.limits[cpu].ports[12]");
    }

    @Test
    void popAndResetLeaveSegments() {
        FieldPath p = new FieldPath("snapshot").field(".nodes");
        int d = p.depth();
        p.index(7).field(".spec.taints").index(2);
        p.pop();
        assertThat(p).hasToString("snapshot.nodes[7].spec.taints");
        p.reset(d);
        assertThat(p).hasToString("snapshot.nodes");
        assertThat(p.depth()).isEqualTo(d);
    }

    @Test
    void growsBeyondItsInitialDepth() {
        FieldPath p = new FieldPath("r");
        StringBuilder expected = new StringBuilder("r");
        for (int i = 0; i < 40; i++) {
            p.index(i);
            expected.append('[').append(i).append(']');
        }
        assertThat(p).hasToString(expected.toString());
    }
}
