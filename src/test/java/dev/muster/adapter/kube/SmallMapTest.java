package dev.muster.adapter.kube;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SmallMapTest {
    private static Map<String, String> small(String... kv) {
        SmallMap.Builder b = new SmallMap.Builder();
        for (int i = 0; i < kv.length; i += 2) {
            b.put(kv[i], kv[i + 1]);
        }
        return b.build();
    }

    @Test
    void keysAreTheMapsKeysInOrderWithoutEntries() {
        Map<String, String> m = small("zone", "a", "rack", "r1", "host", "h1");
        assertThat(m).isInstanceOf(SmallMap.class);
        List<String> keys = new ArrayList<>();
        for (String k : m.keySet()) {
            keys.add(k);
        }
        assertThat(keys).containsExactly("zone", "rack", "host");
        assertThat(m.keySet()).hasSize(3).contains("rack").doesNotContain("row");
        var it = m.keySet().iterator();
        it.next();
        it.next();
        it.next();
        assertThat(it.hasNext()).isFalse();
        assertThatThrownBy(it::next).isInstanceOf(NoSuchElementException.class);
        assertThat(small().keySet()).isEmpty();
    }

    @Test
    void hashCodeIsAnyMapsAndStaysTheSame() {
        Map<String, String> m = small("cpu", "4", "memory", "32Gi");
        Map<String, String> plain = new LinkedHashMap<>();
        plain.put("cpu", "4");
        plain.put("memory", "32Gi");
        assertThat(m.hashCode()).isEqualTo(plain.hashCode()).isEqualTo(m.hashCode());
        assertThat(m).isEqualTo(plain);
        assertThat(plain).isEqualTo(m);
        assertThat(small("cpu", "8", "memory", "32Gi").hashCode()).isNotEqualTo(m.hashCode());
        assertThat(small().hashCode()).isZero();
    }

    @Test
    void equalsAMapOfAnotherKindWithTheSameEntriesOnly() {
        Map<String, String> m = small("tier", "front", "app", "web");
        Map<String, String> sorted = dev.muster.core.model.SortedStringMap.copyOf(Map.of("app", "web", "tier", "front"));
        assertThat(m.equals(sorted)).isTrue();
        assertThat(m.equals(dev.muster.core.model.SortedStringMap.copyOf(Map.of("app", "web", "tier", "back"))))
                .isFalse();
        assertThat(m.equals(Map.of("app", "web"))).isFalse();
        assertThat(m.equals(Map.of("app", "web", "zone", "front"))).isFalse();
        java.util.TreeMap<Integer, String> otherKeys = new java.util.TreeMap<>(Map.of(1, "web", 2, "front"));
        assertThat(m.equals(otherKeys)).as("a map whose look-up cannot take these keys").isFalse();
        assertThat(m.equals(List.of("app", "web"))).isFalse();
    }
}
