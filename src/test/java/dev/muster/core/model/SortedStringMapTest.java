package dev.muster.core.model;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SortedStringMapTest {
    private static Map<String, String> unsorted() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("zone", "z1");
        m.put("app", "web");
        m.put("kubernetes.io/hostname", "n1");
        m.put("tier", "");
        m.put("b", "2");
        return m;
    }

    @Test
    void iteratesInKeyOrderAndEqualsTheTreeMapItReplaces() {
        Map<String, String> copy = SortedStringMap.copyOf(unsorted());
        TreeMap<String, String> tree = new TreeMap<>(unsorted());
        assertThat(List.copyOf(copy.keySet())).containsExactly("app", "b", "kubernetes.io/hostname", "tier", "zone");
        assertThat(List.copyOf(copy.values())).containsExactly("web", "2", "n1", "", "z1");
        assertThat(copy).isEqualTo(tree);
        assertThat(tree).isEqualTo(copy);
        assertThat(copy.hashCode()).isEqualTo(tree.hashCode());
        assertThat(copy).hasToString(tree.toString());
        assertThat(SortedStringMap.copyOf(tree)).isEqualTo(copy);
        assertThat(copy).isNotEqualTo(SortedStringMap.copyOf(Map.of("app", "web")));
    }

    @Test
    void looksKeysUp() {
        Map<String, String> copy = SortedStringMap.copyOf(unsorted());
        for (Map.Entry<String, String> e : unsorted().entrySet()) {
            assertThat(copy.get(e.getKey())).isEqualTo(e.getValue());
            assertThat(copy.containsKey(e.getKey())).isTrue();
        }
        assertThat(copy.get("a")).isNull();
        assertThat(copy.get("zzz")).isNull();
        assertThat(copy.containsKey("c")).isFalse();
        assertThat(copy.size()).isEqualTo(5);
        assertThatThrownBy(() -> copy.get(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void isImmutableAndSharedWhenCopiedAgain() {
        Map<String, String> copy = SortedStringMap.copyOf(unsorted());
        assertThatThrownBy(() -> copy.put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> copy.entrySet().iterator().next().setValue("y"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(SortedStringMap.copyOf(copy)).isSameAs(copy);
        assertThat(SortedStringMap.copyOf(null)).isEmpty();
        assertThat(SortedStringMap.copyOf(new HashMap<>())).isEmpty();
    }

    @Test
    void aCopyDoesNotFollowItsSource() {
        Map<String, String> source = unsorted();
        Map<String, String> copy = SortedStringMap.copyOf(source);
        source.put("app", "changed");
        assertThat(copy.get("app")).isEqualTo("web");
    }

    @Test
    void containedInIsMatchLabelsMatching() {
        Map<String, String> selector = SortedStringMap.copyOf(Map.of("app", "web", "tier", "front"));
        assertThat(SortedStringMap.containedIn(selector, Map.of("app", "web", "tier", "front", "x", "y"))).isTrue();
        assertThat(SortedStringMap.containedIn(selector, Map.of("app", "web"))).isFalse();
        assertThat(SortedStringMap.containedIn(selector, Map.of("app", "web", "tier", "back"))).isFalse();
        assertThat(SortedStringMap.containedIn(Map.of(), Map.of())).isTrue();
        assertThat(SortedStringMap.containedIn(new TreeMap<>(Map.of("app", "web")), Map.of("app", "api"))).isFalse();
        assertThat(new LabelSelector(Map.of("app", "web"), null).matches(Map.of("app", "web"))).isTrue();
        assertThat(new LabelSelector(Map.of("app", "web"), null).matches(Map.of("app", "api"))).isFalse();
    }

    @Test
    void podsAndNodesKeepSortedLabels() {
        Node n = new Node("n", "u", unsorted(), null, false, null);
        assertThat(List.copyOf(n.labels().keySet())).containsExactly("app", "b", "kubernetes.io/hostname", "tier", "zone");
        assertThat(n.labels()).isEqualTo(new TreeMap<>(unsorted()));
    }
}
