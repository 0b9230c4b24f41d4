package dev.muster.adapter.kube;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.PodGroup;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * HyperNodes as node tier labels, Volcano's networkTopology as topology levels, and both decode paths reading
 * {@code snapshot.hyperNodes}.
 */
class HyperNodeTiersTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final KubeCodec DATABIND = new KubeCodec(KubeCodec.Limits.DEFAULT, false);
    private static final String T1 = "volcano.sh/hypernode-tier-1";
    private static final String T2 = "volcano.sh/hypernode-tier-2";
    private static final String T3 = "volcano.sh/hypernode-tier-3";

    private static final String NODES = "'nodes':[{'metadata':{'name':'gpu-1','labels':{'rack':'r1'}}},"
            + "{'metadata':{'name':'gpu-2','labels':{'rack':'r1'}}},{'metadata':{'name':'gpu-3'}},"
            + "{'metadata':{'name':'cpu-1'}}]";
    private static final String HYPER_NODES = "'hyperNodes':["
            + "{'apiVersion':'topology.volcano.sh/v1alpha1','kind':'HyperNode','metadata':{'name':'spine'},"
            + "'spec':{'tier':2,'tierName':'spine','members':[{'type':'HyperNode','selector':{'regexMatch':"
            + "{'pattern':'leaf'}}}]}},"
            + "{'metadata':{'name':'leaf-a'},'spec':{'tier':1,'members':[{'type':'Node','selector':{'labelMatch':"
            + "{'matchLabels':{'rack':'r1'}}}}]}},"
            + "{'metadata':{'name':'leaf-b'},'spec':{'tier':1,'members':[{'type':'Node','selector':{'regexMatch':"
            + "{'pattern':'pu-3'}}},{'type':'Node','selector':{'exactMatch':{'name':'gone'}}}]}},"
            + "{'metadata':{'name':'zone'},'spec':{'tier':3,'members':[{'type':'HyperNode','selector':"
            + "{'exactMatch':{'name':'spine'}}},{'type':'Node','selector':{'exactMatch':{'name':'cpu-1'}}}]}}]";

    private static byte[] bytes(String json) {
        return json.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
    }

    private static RequestDocument.Snapshot snapshot(String podGroups) throws Exception {
        return CODEC.readJson(bytes("{'snapshot':{" + NODES + "," + HYPER_NODES
                + (podGroups == null ? "" : ",'podGroups':[" + podGroups + "]") + "}}")).snapshot();
    }

    @Test
    @DisplayName("a node gets a tier label per HyperNode holding it, directly or through member HyperNodes")
    void labelsThroughMembers() throws Exception {
        RequestDocument.Snapshot s = snapshot(null);
        HyperNodeTiers.Result r = HyperNodeTiers.of(s.hyperNodes(), s.nodes());
        assertThat(r.problems()).isEmpty();
        assertThat(r.maxTier()).isEqualTo(3);
        assertThat(r.tierNames()).containsExactly(Map.entry("spine", 2));
        assertThat(r.labels()).containsExactly(
                Map.entry("cpu-1", Map.of(T3, "zone")),
                Map.entry("gpu-1", Map.of(T1, "leaf-a", T2, "spine", T3, "zone")),
                Map.entry("gpu-2", Map.of(T1, "leaf-a", T2, "spine", T3, "zone")),
                // "pu-3" is found inside "gpu-3": an unanchored match, as Go's regexp.MatchString
                Map.entry("gpu-3", Map.of(T1, "leaf-b", T2, "spine", T3, "zone")));
        ClusterState state = KubeMapper.toClusterState(s);
        assertThat(state.nodes().get(0).labels()).containsEntry("rack", "r1").containsEntry(T1, "leaf-a")
                .containsEntry(T3, "zone");
    }

    @Test
    @DisplayName("a node's own tier label that agrees with its HyperNode is no conflict, and counts toward maxTier")
    void ownLabels() throws Exception {
        List<Kube.Node> nodes = List.of(new Kube.Node(new Kube.ObjectMeta("n1", null, null,
                Map.of(T1, "leaf", "volcano.sh/hypernode-tier-5", "top"), null, null, null, null), null, null));
        List<Kube.HyperNode> hns = List.of(new Kube.HyperNode(null, null, new Kube.ObjectMeta("leaf", null, null,
                null, null, null, null, null), new Kube.HyperNodeSpec(1, null, List.of(new Kube.HyperNodeMember(
                "Node", new Kube.MemberSelector(new Kube.ExactMatch("n1"), null, null))))));
        HyperNodeTiers.Result r = HyperNodeTiers.of(hns, nodes);
        assertThat(r.problems()).isEmpty();
        assertThat(r.maxTier()).isEqualTo(5);
        assertThat(HyperNodeTiers.of(null, nodes).maxTier()).isEqualTo(5);
        assertThat(HyperNodeTiers.tierOf("volcano.sh/hypernode-tier-x")).isZero();
        assertThat(HyperNodeTiers.tierOf("volcano.sh/hypernode-tier-12")).isEqualTo(12);
    }

    @Test
    @DisplayName("a regular expression matching its own HyperNode's name does not make it its own member")
    void selfRegex() throws Exception {
        RequestDocument.Snapshot s = snapshot(null);
        // "spine" holds members by the pattern "leaf"; give it one that matches itself too
        String json = HYPER_NODES.replace("'pattern':'leaf'", "'pattern':'^(leaf|spine)'");
        RequestDocument.Snapshot self = CODEC.readJson(bytes("{'snapshot':{" + NODES + "," + json + "}}"))
                .snapshot();
        assertThat(HyperNodeTiers.of(self.hyperNodes(), self.nodes()).labels())
                .isEqualTo(HyperNodeTiers.of(s.hyperNodes(), s.nodes()).labels());
    }

    @Test
    @DisplayName("hard networkTopology: tiers 1 to the highest allowed as levels, the highest one required")
    void hard() throws Exception {
        PodGroup g = group("{'mode':'hard','highestTierAllowed':2}");
        assertThat(g.topologyKeys()).containsExactly(T2);
        assertThat(g.annotations()).containsEntry("muster.dev/topology-levels", T1 + "," + T2);
        assertThat(g.policy().minCount()).isEqualTo(2);
        // absent mode is hard, absent highestTierAllowed is 1 (the CRD's defaults)
        PodGroup defaults = group("{}");
        assertThat(defaults.topologyKeys()).containsExactly(T1);
        assertThat(defaults.annotations()).containsEntry("muster.dev/topology-levels", T1);
        // by tier name
        assertThat(group("{'highestTierName':'spine'}").topologyKeys()).containsExactly(T2);
        // never wider than the snapshot's widest tier
        assertThat(group("{'highestTierAllowed':7}").topologyKeys()).containsExactly(T3);
    }

    @Test
    @DisplayName("soft networkTopology: the same levels, preferred; up to the widest tier when none is given")
    void soft() throws Exception {
        PodGroup g = group("{'mode':'soft'}");
        assertThat(g.topologyKeys()).isEmpty();
        assertThat(g.annotations()).containsEntry("muster.dev/topology-levels", T1 + "," + T2 + "," + T3)
                .containsEntry("team", "ml");
        assertThat(group("{'mode':'soft','highestTierAllowed':1}").annotations())
                .containsEntry("muster.dev/topology-levels", T1);
    }

    @Test
    @DisplayName("a Volcano PodGroup without networkTopology has no topology")
    void none() throws Exception {
        PodGroup g = group(null);
        assertThat(g.topologyKeys()).isEmpty();
        assertThat(g.annotations()).doesNotContainKey("muster.dev/topology-levels");
    }

    private static PodGroup group(String networkTopology) throws Exception {
        RequestDocument.Snapshot s = snapshot("{'apiVersion':'scheduling.volcano.sh/v1beta1','kind':'PodGroup',"
                + "'metadata':{'name':'g','namespace':'ml','annotations':{'team':'ml'}},'spec':{'minMember':2,"
                + "'queue':'default'" + (networkTopology == null ? "" : ",'networkTopology':" + networkTopology)
                + "}}");
        return KubeMapper.toClusterState(s).podGroups().get(0);
    }

    @Test
    @DisplayName("the byte path, databind and YAML read hyperNodes alike, as an array or as a HyperNodeList")
    void decodePaths() throws Exception {
        String array = "{'snapshot':{" + NODES + "," + HYPER_NODES + "}}";
        String list = array.replace("'hyperNodes':[", "'hyperNodes':{'apiVersion':'topology.volcano.sh/v1alpha1',"
                + "'kind':'HyperNodeList','metadata':{'resourceVersion':'9'},'items':[").replace("]}}]}}",
                "]}}]}}}");
        RequestDocument fast = CODEC.readBytes(bytes(array));
        assertThat(fast).as("the byte path reads hyperNodes itself").isNotNull();
        assertThat(fast.snapshot().hyperNodes()).hasSize(4);
        assertThat(fast.snapshot().hyperNodes().get(0).spec().members().get(0).selector().regexMatch().pattern())
                .isEqualTo("leaf");
        assertThat(CODEC.readJackson(bytes(array))).isEqualTo(fast);
        assertThat(DATABIND.readJson(bytes(array))).isEqualTo(fast);
        assertThat(CODEC.readYaml(bytes(array))).isEqualTo(fast);
        RequestDocument listed = CODEC.readBytes(bytes(list));
        assertThat(listed).isNotNull().isEqualTo(fast);
        assertThat(((KubeList<?>) listed.snapshot().hyperNodes()).kind()).isEqualTo("HyperNodeList");
        assertThat(CODEC.readJackson(bytes(list))).isEqualTo(fast);
    }
}
