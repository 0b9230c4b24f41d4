package dev.muster.adapter.kube;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The maps and lists the streaming decoders hand out behave as the LinkedHashMaps and ArrayLists they replace. */
class SmallCollectionsTest {
    private static final KubeCodec STREAMING = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final KubeCodec DATABIND = new KubeCodec(KubeCodec.Limits.DEFAULT, false);

    private static Map<String, Object> small(Object... kv) {
        SmallMap.Builder b = new SmallMap.Builder();
        b.reset();
        for (int i = 0; i < kv.length; i += 2) {
            b.put((String) kv[i], kv[i + 1]);
        }
        return b.build();
    }

    @Test
    void aSmallMapIsAnOrderedUnmodifiableMapEqualToALinkedHashMap() {
        Map<String, Object> m = small("b", "1", "a", "2", "b", "3");
        LinkedHashMap<String, Object> expected = new LinkedHashMap<>();
        expected.put("b", "1");
        expected.put("a", "2");
        expected.put("b", "3");
        assertThat(m).isInstanceOf(SmallMap.class).isEqualTo(expected).hasSameHashCodeAs(expected);
        assertThat(expected).isEqualTo(m);
        assertThat(m.keySet()).containsExactly("b", "a");
        assertThat(m.get("b")).isEqualTo("3");
        assertThat(m.get(new String("a".toCharArray()))).isEqualTo("2");
        assertThat(m.get(null)).isNull();
        assertThat(m.get(7)).isNull();
        assertThat(m.containsKey("z")).isFalse();
        assertThat(m.containsValue("2")).isTrue();
        assertThat(m.containsValue(null)).isFalse();
        assertThat(m.toString()).isEqualTo(expected.toString());
        assertThat(small()).isEmpty();
        assertThat(small()).isEqualTo(Map.of());
        assertThat(small("a", "1")).isNotEqualTo(small("a", "2")).isNotEqualTo(small("a", "1", "b", "2"));
        assertThatThrownBy(() -> m.put("c", "4")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> m.entrySet().iterator().next().setValue("x"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void moreEntriesThanAScanSuitsBecomeALinkedHashMapInOrder() {
        Object[] kv = new Object[2 * (SmallMap.MAX + 3)];
        for (int i = 0; i < SmallMap.MAX + 3; i++) {
            kv[2 * i] = "k" + (SmallMap.MAX + 3 - i);
            kv[2 * i + 1] = "v" + i;
        }
        Map<String, Object> m = small(kv);
        assertThat(m).isInstanceOf(LinkedHashMap.class).hasSize(SmallMap.MAX + 3);
        assertThat(m.keySet().iterator().next()).isEqualTo("k" + (SmallMap.MAX + 3));
    }

    @Test
    void aSmallListIsAnUnmodifiableListEqualToAnArrayList() {
        List<String> source = new ArrayList<>(List.of("x", "y"));
        List<String> l = SmallList.copyOf(source);
        assertThat(l).isEqualTo(source).hasSameHashCodeAs(source).containsExactly("x", "y");
        assertThat(source).isEqualTo(l);
        assertThat(l.contains(null)).isFalse();
        assertThat(l.indexOf("y")).isEqualTo(1);
        assertThat(SmallList.copyOf(List.of("x", "y"))).isEqualTo(l).isNotEqualTo(SmallList.copyOf(List.of("x")));
        assertThat(SmallList.copyOf(List.of())).isEmpty();
        assertThat(SmallList.<String>copyOf(null)).isNull();
        assertThatThrownBy(() -> l.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> l.add("z")).isInstanceOf(UnsupportedOperationException.class);
        source.add("z");
        assertThat(l).hasSize(2);
    }

    @Test
    void decodedCollectionsCannotBeChangedThroughOnePodBehindAnothersBack() throws Exception {
        String pod = "{\"metadata\":{\"name\":\"%s\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"tolerations\":"
                + "[{\"key\":\"k\",\"operator\":\"Exists\"}],\"containers\":[{\"name\":\"c\",\"resources\":"
                + "{\"requests\":{\"cpu\":\"1\"}}}]}}";
        byte[] body = ("{\"snapshot\":{\"pods\":[" + pod.formatted("a") + "," + pod.formatted("b") + "]}}")
                .getBytes(StandardCharsets.UTF_8);
        RequestDocument doc = STREAMING.readJson(body);
        Kube.PodSpec a = doc.snapshot().pods().get(0).spec();
        Kube.PodSpec b = doc.snapshot().pods().get(1).spec();
        assertThat(a.tolerations()).isSameAs(b.tolerations());
        assertThat(a.containers().get(0)).isSameAs(b.containers().get(0));
        assertThatThrownBy(() -> a.tolerations().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> a.containers().get(0).resources().requests().put("cpu", Qty.of("2")))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> doc.snapshot().pods().get(0).metadata().labels().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(doc).isEqualTo(DATABIND.readJson(body));
    }

    @Test
    void aLabelMapWithManyEntriesDecodesAsDatabindDecodesIt() throws Exception {
        StringBuilder labels = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            labels.append(i == 0 ? "" : ",").append("\"l").append(i).append("\":\"v").append(i % 3).append('"');
        }
        byte[] body = ("{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"n\",\"labels\":{" + labels + "}}}]}}")
                .getBytes(StandardCharsets.UTF_8);
        RequestDocument doc = STREAMING.readJson(body);
        assertThat(doc).isEqualTo(DATABIND.readJson(body));
        assertThat(doc.snapshot().nodes().get(0).metadata().labels()).hasSize(40).containsEntry("l39", "v0");
    }
}
