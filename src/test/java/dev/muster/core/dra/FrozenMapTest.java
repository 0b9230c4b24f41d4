package dev.muster.core.dra;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A frozen map is a map like any other to its readers: equal to equal maps, same hash, in order, unchangeable. */
class FrozenMapTest {
    @Test
    void equalsAndHashAsAnyMapWithTheSameEntries() {
        Map<String, DeviceAttribute> raw = new LinkedHashMap<>();
        raw.put("model", new DeviceAttribute.StringValue("a100"));
        raw.put("index", new DeviceAttribute.IntValue(3L));
        FrozenMap<String, DeviceAttribute> frozen = FrozenMap.copyOf(raw);
        Map<String, DeviceAttribute> other = new HashMap<>(raw);
        assertThat(frozen).isEqualTo(other);
        assertThat(other).isEqualTo(frozen);
        assertThat(frozen.hashCode()).isEqualTo(other.hashCode()).isEqualTo(frozen.hashCode());
        assertThat(frozen.keySet()).containsExactly("model", "index");
        other.put("index", new DeviceAttribute.IntValue(4L));
        assertThat(frozen).isNotEqualTo(other);
        assertThat(frozen).isNotEqualTo(FrozenMap.copyOf(other));
    }

    @Test
    void aCopyOfAFrozenMapIsItselfAndTheSourceCannotChangeIt() {
        Map<String, String> raw = new LinkedHashMap<>(Map.of("a", "1"));
        FrozenMap<String, String> frozen = FrozenMap.copyOf(raw);
        assertThat(FrozenMap.copyOf(frozen)).isSameAs(frozen);
        raw.put("b", "2");
        assertThat(frozen).containsOnlyKeys("a");
        assertThatThrownBy(() -> frozen.put("c", "3")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> frozen.entrySet().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(FrozenMap.copyOf(null)).isEmpty();
        assertThat(FrozenMap.copyOf(Map.of())).isSameAs(FrozenMap.copyOf(null));
    }

    @Test
    void devicesKeepAFrozenMapAsGiven() {
        FrozenMap<String, DeviceAttribute> attributes = FrozenMap.copyOf(Map.of("model", new DeviceAttribute.StringValue("a")));
        Device a = Device.of("gpu-0", attributes, null);
        Device b = Device.of("gpu-0", new HashMap<>(attributes), null);
        assertThat(a.attributes()).isSameAs(attributes);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    }

    @Test
    void readsAsTheLinkedMapItWasBuiltLikeAtEverySize() {
        java.util.Random random = new java.util.Random(7);
        for (int size = 0; size <= 40; size++) {
            Map<String, Integer> linked = new LinkedHashMap<>();
            FrozenMap.Builder<String, Integer> built = FrozenMap.builder(size / 2); // grows past its first guess
            for (int i = 0; i < size; i++) {
                String key = "k" + random.nextInt(2 * size); // some keys put twice: first position, last value
                int value = random.nextInt(5);
                linked.put(key, value);
                built.put(key, value);
            }
            FrozenMap<String, Integer> frozen = built.build();
            FrozenMap<String, Integer> copied = FrozenMap.copyOf(linked);
            for (FrozenMap<String, Integer> m : java.util.List.of(frozen, copied)) {
                assertThat(m).isEqualTo(linked).hasSameHashCodeAs(linked).hasSize(linked.size());
                assertThat(m.keySet()).containsExactlyElementsOf(linked.keySet());
                for (int k = 0; k < 2 * size + 1; k++) {
                    String key = new String("k" + k); // found by equality, not identity
                    assertThat(m.get(key)).isEqualTo(linked.get(key));
                    assertThat(m.containsKey(key)).isEqualTo(linked.containsKey(key));
                }
            }
            assertThat(frozen).isEqualTo(copied);
            if (!linked.isEmpty()) {
                Map<String, Integer> changed = new LinkedHashMap<>(linked);
                changed.put(linked.keySet().iterator().next(), 99);
                assertThat(frozen).isNotEqualTo(FrozenMap.copyOf(changed)).isNotEqualTo(changed);
            }
        }
    }

    @Test
    void findsEveryKeyAmongKeysThatShareAHash() {
        // "Aa" and "BB" hash alike, so every word of five of them hashes alike: 32 keys on one slot of the index
        java.util.List<String> words = new java.util.ArrayList<>();
        for (int bits = 0; bits < 32; bits++) {
            StringBuilder w = new StringBuilder();
            for (int b = 0; b < 5; b++) {
                w.append((bits >> b & 1) == 0 ? "Aa" : "BB");
            }
            words.add(w.toString());
        }
        assertThat(words.stream().map(String::hashCode).distinct()).hasSize(1);
        Map<String, Integer> linked = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) { // past the scan: looked up through the index
            linked.put(words.get(i), i);
        }
        linked.put(null, -1);
        FrozenMap<String, Integer> m = FrozenMap.copyOf(linked);
        for (int i = 0; i < words.size(); i++) {
            String key = new String(words.get(i));
            assertThat(m.get(key)).as(key).isEqualTo(i < 20 ? i : null);
            assertThat(m.containsKey(key)).isEqualTo(i < 20);
        }
        assertThat(m.get(null)).isEqualTo(-1);
        assertThat(m).isEqualTo(linked);
    }
}
