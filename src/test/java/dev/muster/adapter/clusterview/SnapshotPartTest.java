package dev.muster.adapter.clusterview;

import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.Kube;
import dev.muster.adapter.kube.KubeCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How one file's items find their kind, whatever the order of their fields. */
class SnapshotPartTest {
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

    SnapshotPart.Document read(String json) throws DecodeException {
        return codec.readJson(json.getBytes(StandardCharsets.UTF_8), SnapshotPart.Document.class);
    }

    @Test
    void aRecordThatKeepsItsApiVersionAndKindGetsThemBack() throws Exception {
        SnapshotPart.Document d = read("{\"apiVersion\":\"v1\",\"items\":[{\"apiVersion\":\"scheduling.volcano.sh/v1beta1\","
                + "\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"g\",\"namespace\":\"ns\"},\"spec\":{\"minMember\":3}}],"
                + "\"kind\":\"List\"}");

        Kube.PodGroup g = (Kube.PodGroup) d.items().get(0);
        assertThat(g.apiVersion()).isEqualTo("scheduling.volcano.sh/v1beta1");
        assertThat(g.kind()).isEqualTo("PodGroup");
        assertThat(g.metadata().name()).isEqualTo("g");
    }

    @Test
    void fieldsBeforeTheKindAreReplayed() throws Exception {
        SnapshotPart.Document d = read("{\"kind\":\"List\",\"items\":[{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"},"
                + "\"spec\":{\"nodeName\":\"n1\"},\"kind\":\"Pod\",\"status\":{\"phase\":\"Running\"}},"
                + "{\"spec\":{\"unschedulable\":true},\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n1\"},\"kind\":\"Node\"}]}");

        Kube.Pod p = (Kube.Pod) d.items().get(0);
        assertThat(p.metadata().name()).isEqualTo("p");
        assertThat(p.spec().nodeName()).isEqualTo("n1");
        assertThat(p.status().phase()).isEqualTo("Running");
        Kube.Node n = (Kube.Node) d.items().get(1);
        assertThat(n.metadata().name()).isEqualTo("n1");
        assertThat(n.spec().unschedulable()).isTrue();
    }

    @Test
    void kubectlOrderReadsTheBodyStraightFromTheFile() throws Exception {
        SnapshotPart.Document d = read("{\"apiVersion\":\"v1\",\"items\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
                + "\"metadata\":{\"name\":\"p\"},\"spec\":{\"priority\":7}},{\"kind\":\"Pod\"}],\"kind\":\"List\"}");

        assertThat(((Kube.Pod) d.items().get(0)).spec().priority()).isEqualTo(7);
        assertThat(((Kube.Pod) d.items().get(1)).metadata()).isNull();
    }

    @Test
    void aTypedListsItemsOfAnotherKindAreRejected() {
        assertThatThrownBy(() -> read("{\"kind\":\"NodeList\",\"items\":[{\"kind\":\"Pod\",\"metadata\":{}}]}"))
                .isInstanceOf(DecodeException.class)
                .hasMessageStartingWith("items[0].kind: a NodeList holds Node objects, not Pod");
    }

    @Test
    void anItemThatIsNotAnObjectIsAWrongType() {
        assertThatThrownBy(() -> read("{\"kind\":\"List\",\"items\":[\"node-1\"]}"))
                .isInstanceOf(DecodeException.class)
                .hasMessageStartingWith("items[0]: wrong type: expected an object");
    }

    @Test
    void anItemsErrorCarriesItsPathInTheFile() {
        assertThatThrownBy(() -> read("{\"apiVersion\":\"v1\",\"items\":[{\"kind\":\"Node\",\"metadata\":{\"name\":\"a\"}},"
                + "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"spec\":{\"priority\":\"high\"}}],\"kind\":\"List\"}"))
                .isInstanceOf(DecodeException.class)
                .hasMessageStartingWith("items[1].spec.priority: ");
    }
}
