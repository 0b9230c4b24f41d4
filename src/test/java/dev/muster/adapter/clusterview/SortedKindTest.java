package dev.muster.adapter.clusterview;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class SortedKindTest {
    @Test
    void everyListIsTheValuesInKeyOrderWhetherMergedOrRebuilt() {
        for (int seed = 1; seed <= 40; seed++) {
            Random rnd = new Random(seed);
            SortedKind<String> kind = new SortedKind<>();
            TreeMap<String, String> reference = new TreeMap<>();
            List<List<String>> handedOut = new ArrayList<>();
            List<List<String>> expected = new ArrayList<>();
            int keys = 50 + rnd.nextInt(5000);
            for (int step = 0; step < 60; step++) {
                // a few changes (merged) most of the time, a burst (rebuilt) sometimes
                int changes = rnd.nextInt(10) == 0 ? keys / 10 : rnd.nextInt(6);
                for (int c = 0; c < changes; c++) {
                    String key = "k" + rnd.nextInt(keys);
                    if (rnd.nextInt(3) == 0) {
                        assertThat(kind.remove(key)).isEqualTo(reference.remove(key) != null);
                    } else {
                        String value = key + "@" + step + "." + c;
                        reference.put(key, value);
                        assertThat(kind.put(key, value)).isTrue();
                    }
                }
                List<String> list = kind.list();
                assertThat(list).as("seed %d step %d", seed, step).containsExactlyElementsOf(reference.values());
                assertThat(kind.size()).isEqualTo(reference.size());
                handedOut.add(list);
                expected.add(List.copyOf(reference.values()));
            }
            for (int i = 0; i < handedOut.size(); i++) {
                assertThat(handedOut.get(i)).as("a list handed out never changes afterwards")
                        .containsExactlyElementsOf(expected.get(i));
            }
        }
    }

    @Test
    void putOfTheSameObjectIsNoChange() {
        SortedKind<String> kind = new SortedKind<>();
        String v = "v";
        assertThat(kind.put("a", v)).isTrue();
        assertThat(kind.put("a", v)).isFalse();
        assertThat(kind.remove("b")).isFalse();
        assertThat(kind.list()).containsExactly("v");
    }
}
