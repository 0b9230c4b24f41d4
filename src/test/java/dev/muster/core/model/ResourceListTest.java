package dev.muster.core.model;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResourceListTest {
    @Test
    void arraysInAnyOrderGiveTheSameListAsAMap() {
        String[] names = {"memory", "cpu", "pods", "example.com/gpu", "ignored"};
        long[] values = {1024, 500, 110, 2, 99};
        ResourceList fromArrays = ResourceList.of(names, values, 4);
        ResourceList fromMap = ResourceList.of(Map.of("memory", 1024L, "cpu", 500L, "pods", 110L, "example.com/gpu", 2L));
        assertThat(fromArrays).isEqualTo(fromMap);
        assertThat(fromArrays.hashCode()).isEqualTo(fromMap.hashCode());
        assertThat(fromArrays.amounts()).isEqualTo(fromMap.amounts());
        assertThat(List.copyOf(fromArrays.amounts().keySet())).containsExactly("cpu", "example.com/gpu", "memory", "pods");
        assertThat(fromArrays.name(0)).isEqualTo("cpu");
        assertThat(fromArrays.value(0)).isEqualTo(500);
        assertThat(fromArrays.get("memory")).isEqualTo(1024);
        assertThat(fromArrays.has("ignored")).isFalse();
        assertThat(fromArrays).hasToString("ResourceList{cpu=500, example.com/gpu=2, memory=1024, pods=110}");
        // the caller's arrays are copied, not kept
        names[0] = "x";
        values[1] = 7;
        assertThat(fromArrays.get("memory")).isEqualTo(1024);
        assertThat(fromArrays.get("cpu")).isEqualTo(500);
    }

    @Test
    void noEntriesIsEmptyAndANameTwiceIsRejected() {
        assertThat(ResourceList.of(new String[0], new long[0], 0)).isSameAs(ResourceList.EMPTY);
        assertThat(ResourceList.EMPTY.amounts()).isEmpty();
        assertThatThrownBy(() -> ResourceList.of(new String[]{"cpu", "memory", "cpu"}, new long[]{1, 2, 3}, 3))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theMapViewIsUnmodifiable() {
        ResourceList r = ResourceList.of(new String[]{"cpu"}, new long[]{1}, 1);
        assertThatThrownBy(() -> r.amounts().put("memory", 1L)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(r.amounts()).isSameAs(r.amounts());
    }
}
