package dev.muster.adapter.kube;

import dev.muster.core.model.ClusterState;
import dev.muster.core.model.Pod;
import dev.muster.core.model.PodGroup;
import dev.muster.core.model.SchedulingPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code muster.dev/min-per-role} grammar, and how both role sources reach the core model. */
class RoleMinimumsTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);

    @Test
    void parsesTheLabelKeyAndEachRole() {
        RoleMinimums.Spec s = RoleMinimums.parse(" app.kubernetes.io/component : leader=1, worker = 4 ");
        assertThat(s.labelKey()).isEqualTo("app.kubernetes.io/component");
        assertThat(s.minimums()).containsExactly(Map.entry("leader", 1), Map.entry("worker", 4));
        assertThat(RoleMinimums.parse("role:ps=2").minimums()).containsExactly(Map.entry("ps", 2));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @CsvSource(delimiter = '|', value = {
        "leader=1                      | no `:`",
        "Bad_Prefix/role: leader=1     | qualified name",
        "role:                         | at least one role",
        "role: leader                  | must be `<role>=<n>`",
        "role: leader=0                | greater than or equal to 1",
        "role: leader=-1               | at least 1",
        "role: leader=one              | at least 1",
        "role: leader=99999999999      | at least 1",
        "role: =1                      | non-empty label value",
        "role: lead er=1               | non-empty label value",
        "role: leader=1,leader=2       | named twice",
        "role: leader=1,               | must be `<role>=<n>`",
    })
    void rejectsWhatTheGrammarDoesNotAllow(String value, String rule) {
        assertThatThrownBy(() -> RoleMinimums.parse(value)).isInstanceOf(RoleMinimums.Invalid.class)
                .hasMessageContaining(rule);
    }

    private static ClusterState state(String snapshotLists) throws Exception {
        String json = ("{'snapshot':{'nodes':[{'metadata':{'name':'n'}}]," + snapshotLists + "}}").replace('\'', '"');
        return KubeMapper.toClusterState(CODEC.readJson(json.getBytes(StandardCharsets.UTF_8)).snapshot());
    }

    @Test
    void aMemberRoleIsItsValueOfTheNamedLabel() throws Exception {
        ClusterState s = state("'podGroups':[{'metadata':{'name':'g','annotations':{'muster.dev/min-per-role':"
                + "'team/role: leader=1'}},'spec':{'schedulingPolicy':{'gang':{'minCount':2}}}},"
                + "{'metadata':{'name':'other'},'spec':{'schedulingPolicy':{'gang':{'minCount':1}}}}],"
                + "'pods':[{'metadata':{'name':'a','labels':{'team/role':'leader'}},"
                + "'spec':{'schedulingGroup':{'podGroupName':'g'}}},"
                + "{'metadata':{'name':'b','labels':{'team/role':'worker'}},"
                + "'spec':{'schedulingGroup':{'podGroupName':'g'}}},"
                + "{'metadata':{'name':'c'},'spec':{'schedulingGroup':{'podGroupName':'g'}}},"
                + "{'metadata':{'name':'d','labels':{'team/role':'leader'}},"
                + "'spec':{'schedulingGroup':{'podGroupName':'other'}}}]");
        assertThat(s.podGroups().get(0).minPerRole()).containsExactly(Map.entry("leader", 1));
        assertThat(s.podGroups().get(1).minPerRole()).isEmpty();
        assertThat(s.pods()).extracting(Pod::role).containsExactly("leader", "worker", null, null);
    }

    @Test
    void aVolcanoTaskIsTheRoleOfMinTaskMember() throws Exception {
        ClusterState s = state("'podGroups':[{'apiVersion':'scheduling.volcano.sh/v1beta1','metadata':{'name':'v'},"
                + "'spec':{'minMember':3,'minTaskMember':{'ps':1,'worker':2,'idle':0}}},"
                + "{'apiVersion':'scheduling.volcano.sh/v1beta1','metadata':{'name':'t'},"
                + "'spec':{'minTaskMember':{'ps':1,'worker':2}}}],"
                + "'pods':[{'metadata':{'name':'a','annotations':{'scheduling.k8s.io/group-name':'v',"
                + "'volcano.sh/task-spec':'ps'},'labels':{'volcano.sh/task-spec':'worker'}}},"
                + "{'metadata':{'name':'b','annotations':{'scheduling.k8s.io/group-name':'v'}}}]");
        PodGroup v = s.podGroups().get(0);
        assertThat(v.minPerRole()).containsExactly(Map.entry("ps", 1), Map.entry("worker", 2));
        assertThat(v.policy()).isEqualTo(SchedulingPolicy.gang(3));
        assertThat(s.podGroups().get(1).policy()).as("no minMember: the task minimums' sum")
                .isEqualTo(SchedulingPolicy.gang(3));
        assertThat(s.pods()).extracting(Pod::role).containsExactly("ps", null);
    }
}
