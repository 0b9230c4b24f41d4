package dev.muster.adapter.kube;

import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.model.DisruptionMode;
import dev.muster.core.model.GroupRef;
import dev.muster.core.model.LabelSelector;
import dev.muster.core.model.Node;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.SchedulingPolicy;
import dev.muster.core.model.TaintEffect;
import dev.muster.core.model.Toleration;
import dev.muster.core.model.TopologySpreadConstraint;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class KubeMapperTest {
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

    private DecisionRequest decode(String json) throws DecodeException {
        return KubeMapper.toDecisionRequest(codec.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theTrainingJobMapsToTheCoreModel() throws Exception {
        DecisionRequest r = KubeMapper.toDecisionRequest(
                codec.readJson(Files.readAllBytes(Path.of("openapi/examples/training-job.json"))));
        assertThat(r.podGroups()).containsExactly(new GroupRef("some-ns", "training-job-workers-pg"));
        assertThat(r.options().preemption()).isTrue();
        assertThat(r.options().explain()).isFalse();
        Node n = r.cluster().nodes().get(0);
        assertThat(n.allocatable().amounts()).containsEntry("cpu", 8000L).containsEntry("memory", 34359738368L)
                .containsEntry("pods", 110L);
        Pod p = r.cluster().pods().get(0);
        assertThat(p.ref().namespace()).isEqualTo("some-ns");
        assertThat(p.podGroupName()).isEqualTo("training-job-workers-pg");
        assertThat(p.requests().amounts()).containsEntry("cpu", 2000L).containsEntry("memory", 4294967296L);
        assertThat(p.creationEpochSec()).isEqualTo(1776852000L);
        PodGroup g = r.cluster().podGroups().get(0);
        assertThat(g.policy()).isEqualTo(SchedulingPolicy.gang(4));
        assertThat(g.generation()).isEqualTo(1);
        assertThat(g.disruptionMode()).isEqualTo(DisruptionMode.Pod);
    }

    @Test
    void defaultsAreAppliedAsTheApiServerWould() throws Exception {
        DecisionRequest r = decode("{'snapshot':{'nodes':[{'metadata':{'name':'n'},'spec':{'taints':[{'key':'gpu','effect':'NoSchedule'}]},"
                + "'status':{'capacity':{'cpu':'4'}}}],"
                + "'pods':[{'metadata':{'name':'p','labels':{'app':'a','rev':'7'}},'spec':{'tolerations':[{'key':'gpu'}],"
                + "'topologySpreadConstraints':[{'maxSkew':1,'topologyKey':'zone','whenUnsatisfiable':'DoNotSchedule',"
                + "'labelSelector':{'matchLabels':{'app':'a'}},'matchLabelKeys':['rev','absent']}]}}]},"
                + "'options':{'preemption':false,'explain':true}}");
        Node n = r.cluster().nodes().get(0);
        assertThat(n.allocatable().amounts()).containsEntry("cpu", 4000L);
        assertThat(n.taints().get(0).effect()).isEqualTo(TaintEffect.NoSchedule);
        Pod p = r.cluster().pods().get(0);
        assertThat(p.ref().namespace()).isEqualTo("default");
        assertThat(p.creationEpochSec()).isEqualTo(Long.MAX_VALUE);
        assertThat(p.tolerations().get(0).operator()).isEqualTo(Toleration.Operator.Equal);
        TopologySpreadConstraint c = p.topologySpreadConstraints().get(0);
        assertThat(c.doNotSchedule()).isTrue();
        assertThat(c.honorNodeAffinity()).isTrue();
        assertThat(c.honorNodeTaints()).isFalse();
        assertThat(c.labelSelector().matchExpressions())
                .containsExactly(new LabelSelector.Requirement("rev", LabelSelector.Operator.In, List.of("7")));
        assertThat(r.podGroups()).isNull();
        assertThat(r.options().preemption()).isFalse();
        assertThat(r.options().explain()).isTrue();
    }
    @Test
    void enumNamesMapToTheirConstantsAndUnknownNamesStillFail() {
        for (TaintEffect e : TaintEffect.values()) {
            assertThat(KubeMapper.taintEffect(e.name())).isEqualTo(e);
        }
        for (Toleration.Operator o : Toleration.Operator.values()) {
            assertThat(KubeMapper.tolerationOperator(o.name())).isEqualTo(o);
        }
        assertThat(KubeMapper.tolerationOperator(null)).isEqualTo(Toleration.Operator.Equal);
        assertThat(KubeMapper.tolerationOperator("")).isEqualTo(Toleration.Operator.Equal);
        for (dev.muster.core.model.NodeSelectorRequirement.Operator o
                : dev.muster.core.model.NodeSelectorRequirement.Operator.values()) {
            assertThat(KubeMapper.nodeOperator(o.name())).isEqualTo(o);
        }
        for (LabelSelector.Operator o : LabelSelector.Operator.values()) {
            assertThat(KubeMapper.labelOperator(o.name())).isEqualTo(o);
        }
        for (String bad : List.of("Nope", "in", "Gx", "NotIt", "Exist!", "Sometimes")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubeMapper.nodeOperator(bad))
                    .isInstanceOf(IllegalArgumentException.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubeMapper.labelOperator(bad))
                    .isInstanceOf(IllegalArgumentException.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubeMapper.taintEffect(bad))
                    .isInstanceOf(IllegalArgumentException.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubeMapper.tolerationOperator(bad))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KubeMapper.labelOperator("Gt"))
                .isInstanceOf(IllegalArgumentException.class);
    }
    @Test
    void podsWithEqualTolerationsShareOneCompiledListAndOthersKeepTheirOwn() throws Exception {
        String a = "'tolerations':[{'key':'node.kubernetes.io/not-ready','operator':'Exists','effect':'NoExecute','tolerationSeconds':300}]";
        String b = "'tolerations':[{'key':'dedicated','value':'gpu','effect':'NoSchedule'}]";
        DecisionRequest r = decode("{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}],'pods':["
                + "{'metadata':{'name':'p1'},'spec':{" + a + "}},"
                + "{'metadata':{'name':'p2'},'spec':{" + a + "}},"
                + "{'metadata':{'name':'p3'},'spec':{" + b + "}},"
                + "{'metadata':{'name':'p4'},'spec':{}},"
                + "{'metadata':{'name':'p5'},'spec':{" + a.replace("300", "60") + "}}]}}");
        List<Pod> pods = r.cluster().pods();
        Toleration notReady = new Toleration("node.kubernetes.io/not-ready", Toleration.Operator.Exists, "",
                TaintEffect.NoExecute);
        assertThat(pods.get(0).tolerations()).containsExactly(notReady);
        assertThat(pods.get(1).tolerations()).isSameAs(pods.get(0).tolerations());
        assertThat(pods.get(2).tolerations()).containsExactly(
                new Toleration("dedicated", Toleration.Operator.Equal, "gpu", TaintEffect.NoSchedule));
        assertThat(pods.get(3).tolerations()).isEmpty();
        assertThat(pods.get(4).tolerations()).containsExactly(notReady).isNotSameAs(pods.get(0).tolerations());
        assertThat(KubeMapper.pod(codec.readJson(("{'snapshot':{'nodes':[],'pods':[{'metadata':{'name':'p'},'spec':{" + a
                + "}}]}}").replace('\'', '"').getBytes(StandardCharsets.UTF_8)).snapshot().pods().get(0)).tolerations())
                .containsExactly(notReady);
    }

    @Test
    void podsWithEqualAffinityShareOneObjectUnlessTheirTermsReadTheirOwnLabels() throws Exception {
        String anti = "'affinity':{'podAntiAffinity':{'requiredDuringSchedulingIgnoredDuringExecution':[{'labelSelector':"
                + "{'matchLabels':{'app':'web'}},'topologyKey':'kubernetes.io/hostname'%s}]}}";
        String keys = ",'matchLabelKeys':['pod-template-hash']";
        DecisionRequest r = decode("{'snapshot':{'pods':["
                + pod("a", "h1", "default", anti.formatted("")) + "," + pod("b", "h2", "other", anti.formatted("")) + ","
                + pod("c", "h1", "default", anti.formatted(keys)) + "," + pod("d", "h2", "default", anti.formatted(keys))
                + "]}}");
        List<Pod> pods = r.cluster().pods();
        assertThat(pods.get(1).affinity()).as("equal raw affinity, another namespace").isSameAs(pods.get(0).affinity());
        assertThat(pods.get(2).affinity()).isNotSameAs(pods.get(3).affinity());
        assertThat(pods.get(2).affinity().requiredPodAntiAffinity().get(0).labelSelector().matchExpressions())
                .extracting(LabelSelector.Requirement::values).containsExactly(List.of("h1"));
        assertThat(pods.get(3).affinity().requiredPodAntiAffinity().get(0).labelSelector().matchExpressions())
                .extracting(LabelSelector.Requirement::values).containsExactly(List.of("h2"));
    }

    private static String pod(String name, String hash, String namespace, String affinity) {
        return "{'metadata':{'name':'" + name + "','namespace':'" + namespace + "','labels':{'app':'web',"
                + "'pod-template-hash':'" + hash + "'}},'spec':{'containers':[{'name':'c'}]," + affinity + "}}";
    }

    @Test
    void devicesThatLookAlikeShareTheirAttributeAndCapacityMaps() throws Exception {
        String slice = "{'metadata':{'name':'%s'},'spec':{'driver':'gpu.example.com','nodeName':'%s','pool':{'name':'%s',"
                + "'generation':1,'resourceSliceCount':1},'devices':[{'name':'gpu-0','attributes':{'model':{'string':'%s'}},"
                + "'capacity':{'memory':{'value':'80Gi'}}}]}}";
        // every attribute kept (the objects as a cluster view maps them): no claim of this request reads the model
        dev.muster.core.dra.DraObjects dra = KubeMapper.draObjects(codec.readJson(("{'snapshot':{'resourceSlices':["
                + slice.formatted("s1", "n1", "n1", "a100") + "," + slice.formatted("s2", "n2", "n2", "a100") + ","
                + slice.formatted("s3", "n3", "n3", "h100") + "]}}").replace('\'', '"').getBytes(StandardCharsets.UTF_8))
                .snapshot(), e -> {
                    throw new IllegalStateException(e);
                });
        List<dev.muster.core.dra.Device> devices = dra.resourceSlices().stream().map(s -> s.devices().get(0)).toList();
        assertThat(devices.get(1).attributes()).isSameAs(devices.get(0).attributes());
        assertThat(devices.get(2).attributes()).isNotSameAs(devices.get(0).attributes())
                .containsEntry("model", new dev.muster.core.dra.DeviceAttribute.StringValue("h100"));
        assertThat(devices.get(2).capacity()).isSameAs(devices.get(0).capacity());
        assertThat(devices.get(0).capacity().get("memory").value()).isEqualTo("80Gi");
    }

    @org.junit.jupiter.api.Test
    @org.junit.jupiter.api.DisplayName("a PodGroup's preemptionPolicy is read, and the nearest composite's stands for its whole tree")
    void preemptionPolicies() throws Exception {
        String composites = "'compositePodGroups':["
                + "{'apiVersion':'scheduling.k8s.io/v1alpha3','kind':'CompositePodGroup','metadata':{'name':'root',"
                + "'namespace':'ml'},'spec':{'schedulingPolicy':{'basic':{}},'preemptionPolicy':'Never'}},"
                + "{'apiVersion':'scheduling.k8s.io/v1alpha3','kind':'CompositePodGroup','metadata':{'name':'mid',"
                + "'namespace':'ml'},'spec':{'parentCompositePodGroupName':'root','schedulingPolicy':{'basic':{}}}}]";
        String groups = "'podGroups':["
                + "{'apiVersion':'scheduling.k8s.io/v1beta1','kind':'PodGroup','metadata':{'name':'alone','namespace':'ml'},"
                + "'spec':{'schedulingPolicy':{'basic':{}},'preemptionPolicy':'Never'}},"
                + "{'apiVersion':'scheduling.k8s.io/v1beta1','kind':'PodGroup','metadata':{'name':'child','namespace':'ml'},"
                + "'spec':{'parentCompositePodGroupName':'mid','schedulingPolicy':{'basic':{}},"
                + "'preemptionPolicy':'PreemptLowerPriority'}},"
                + "{'apiVersion':'scheduling.k8s.io/v1beta1','kind':'PodGroup','metadata':{'name':'free','namespace':'ml'},"
                + "'spec':{'schedulingPolicy':{'basic':{}}}}]";
        DecisionRequest r = KubeMapper.toDecisionRequest(codec.readJson(("{'snapshot':{'nodes':[]," + groups + ","
                + composites + "}}").replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
        java.util.Map<String, dev.muster.core.model.PodGroup> byName = new java.util.HashMap<>();
        for (dev.muster.core.model.PodGroup g : r.cluster().podGroups()) {
            byName.put(g.ref().name(), g);
        }
        assertThat(byName.get("alone").neverPreempts()).isTrue();
        assertThat(byName.get("child").neverPreempts()).as("the root composite's Never stands for its tree").isTrue();
        assertThat(byName.get("free").neverPreempts()).isFalse();
        assertThat(byName.get("free").preemptionPolicy()).isNull();
    }
}
