package dev.muster.adapter.kube;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.DisruptionMode;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.SchedulingPolicy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Every gang shape maps onto the one core PodGroup. */
class GangMapperTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);

    private static ClusterState state(String snapshotLists) throws Exception {
        String json = ("{'snapshot':{'nodes':[{'metadata':{'name':'n'}}]," + snapshotLists + "}}").replace('\'', '"');
        return KubeMapper.toClusterState(CODEC.readJson(json.getBytes(StandardCharsets.UTF_8)).snapshot());
    }

    @Test
    void aV1beta1DisruptionModeStructMapsToTheV1alpha2Mode() throws Exception {
        ClusterState s = state("'podGroups':["
                + "{'apiVersion':'scheduling.k8s.io/v1beta1','metadata':{'name':'a'},'spec':{'schedulingPolicy':"
                + "{'gang':{'minCount':2}},'disruptionMode':{'all':{}}}},"
                + "{'apiVersion':'scheduling.k8s.io/v1beta1','metadata':{'name':'b'},'spec':{'schedulingPolicy':"
                + "{'basic':{}},'disruptionMode':{'single':{}}}}]");
        assertThat(s.podGroups()).extracting(PodGroup::disruptionMode)
                .containsExactly(DisruptionMode.PodGroup, DisruptionMode.Pod);
        assertThat(s.podGroups().get(0).policy()).isEqualTo(SchedulingPolicy.gang(2));
    }

    @Test
    void minMemberIsTheGangMinimumAndMinResourcesCountsItsPods() throws Exception {
        ClusterState s = state("'podGroups':["
                + "{'apiVersion':'scheduling.volcano.sh/v1beta1','metadata':{'name':'v'},'spec':{'minMember':3,"
                + "'queue':'q','minResources':{'cpu':'1500m'}}},"
                + "{'apiVersion':'scheduling.x-k8s.io/v1alpha1','metadata':{'name':'c'},'spec':{'minMember':0}}],"
                + "'pods':[{'metadata':{'name':'p1','annotations':{'scheduling.k8s.io/group-name':'v'}}},"
                + "{'metadata':{'name':'p2','labels':{'scheduling.x-k8s.io/pod-group':'c'}}}]");
        PodGroup v = s.podGroups().get(0);
        assertThat(v.policy()).isEqualTo(SchedulingPolicy.gang(3));
        assertThat(v.minResources().get("cpu")).isEqualTo(1500);
        assertThat(v.minResources().get("pods")).isEqualTo(3);
        assertThat(s.podGroups().get(1).policy()).isEqualTo(SchedulingPolicy.BASIC);
        assertThat(s.podGroups().get(1).minResources()).isNull();
        assertThat(s.pods()).extracting(Pod::podGroupName).containsExactly("v", "c");
    }

    @Test
    void eachWorkloadGroupReplicaIsItsOwnGroup() throws Exception {
        ClusterState s = state("'workloads':[{'apiVersion':'scheduling.k8s.io/v1alpha1','metadata':{'name':'wl',"
                + "'uid':'w-1'},'spec':{'podGroups':[{'name':'workers','policy':{'gang':{'minCount':2}}}]}}],"
                + "'pods':[{'metadata':{'name':'a'},'spec':{'workloadRef':{'name':'wl','podGroup':'workers',"
                + "'podGroupReplicaKey':'r0'}}},"
                + "{'metadata':{'name':'b'},'spec':{'workloadRef':{'name':'wl','podGroup':'workers',"
                + "'podGroupReplicaKey':'r1'}}},"
                + "{'metadata':{'name':'c'},'spec':{'workloadRef':{'name':'wl','podGroup':'missing'}}}]");
        assertThat(s.pods()).extracting(Pod::podGroupName)
                .containsExactly("wl/workers/r0", "wl/workers/r1", "wl/missing");
        assertThat(s.podGroups()).extracting(g -> g.ref().toString())
                .containsExactly("default/wl/workers/r0", "default/wl/workers/r1");
        assertThat(s.podGroups()).extracting(PodGroup::policy).containsOnly(SchedulingPolicy.gang(2));
    }

    @Test
    void aBrokenTemplateLinkIsAWarning() throws Exception {
        String gang = "'schedulingPolicy':{'gang':{'minCount':2}}";
        ClusterState s = state("'workloads':[{'metadata':{'name':'wl'},'spec':{'podGroupTemplates':[{'name':'t',"
                + gang + "}]}}],'podGroups':["
                + "{'metadata':{'name':'ok'},'spec':{'podGroupTemplateRef':{'workload':{'workloadName':'wl',"
                + "'podGroupTemplateName':'t'}}," + gang + "}},"
                + "{'metadata':{'name':'no-workload'},'spec':{'podGroupTemplateRef':{'workload':{'workloadName':'x',"
                + "'podGroupTemplateName':'t'}}," + gang + "}},"
                + "{'apiVersion':'scheduling.k8s.io/v1beta1','metadata':{'name':'no-template'},'spec':{'workloadRef':"
                + "{'workloadName':'wl','templateName':'u'}," + gang + "}}]");
        assertThat(s.podGroups().get(0).warnings()).isEmpty();
        assertThat(s.podGroups().get(1).warnings()).singleElement().asString().contains("Workload \"x\"");
        assertThat(s.podGroups().get(2).warnings()).singleElement().asString()
                .startsWith("spec.workloadRef names template \"u\"");
    }

    @Test
    void jobPodsJoinTheDerivedGangOnlyWithoutAnExistingWorkload() throws Exception {
        String job = "{'metadata':{'name':'j','uid':'u-1'},'spec':{'parallelism':2,'completions':2,"
                + "'completionMode':'Indexed'}}";
        String pods = "'pods':[{'metadata':{'name':'j-0','labels':{'batch.kubernetes.io/controller-uid':'u-1'}}},"
                + "{'metadata':{'name':'other','labels':{'batch.kubernetes.io/controller-uid':'u-2'}}}]";
        ClusterState derived = state("'jobs':[" + job + "]," + pods);
        String name = JobGangs.verdict(CODEC.readJson(("{'jobs':[" + job + "]}").replace('\'', '"')
                .getBytes(StandardCharsets.UTF_8), Jobs.class).jobs().get(0)).podGroupName();
        assertThat(derived.pods()).extracting(Pod::podGroupName).containsExactly(name, null);
        assertThat(derived.podGroups()).singleElement().satisfies(g -> {
            assertThat(g.ref().name()).isEqualTo(name);
            assertThat(g.policy()).isEqualTo(SchedulingPolicy.gang(2));
        });
        ClusterState existing = state("'jobs':[" + job + "]," + pods + ",'workloads':[{'metadata':{'name':'w'},"
                + "'spec':{'controllerRef':{'apiGroup':'batch','kind':'Job','name':'j'},'podGroupTemplates':[{'name':"
                + "'t','schedulingPolicy':{'basic':{}}}]}}]");
        assertThat(existing.pods()).extracting(Pod::podGroupName).containsOnlyNulls();
        assertThat(existing.podGroups()).isEmpty();
    }

    record Jobs(java.util.List<Kube.Job> jobs) {
    }
}
