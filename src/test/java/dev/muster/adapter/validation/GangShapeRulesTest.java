package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.RequestDocument;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static dev.muster.adapter.validation.Cause.DUPLICATE;
import static dev.muster.adapter.validation.Cause.FORBIDDEN;
import static dev.muster.adapter.validation.Cause.INVALID;
import static dev.muster.adapter.validation.Cause.NOT_SUPPORTED;
import static dev.muster.adapter.validation.Cause.REQUIRED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Each gang API shape is checked by its own rules, and pods join one group in one way. */
class GangShapeRulesTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private static final String GANG = "'schedulingPolicy':{'gang':{'minCount':2}}";

    private static String snap(String extra) {
        return "{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}]," + extra + "}}";
    }

    private static String group(String apiVersion, String spec) {
        return snap("'podGroups':[{'apiVersion':'" + apiVersion + "','kind':'PodGroup','metadata':{'name':'pg',"
                + "'namespace':'ns'},'spec':" + spec + "}]");
    }

    private static final String ROLES_FIELD = "snapshot.podGroups[0].metadata.annotations[muster.dev/min-per-role]";

    private static String roles(String apiVersion, String annotation, String spec) {
        return snap("'podGroups':[{'apiVersion':'" + apiVersion + "','kind':'PodGroup','metadata':{'name':'pg',"
                + "'namespace':'ns','annotations':{'muster.dev/min-per-role':'" + annotation + "'}},'spec':" + spec
                + "}]");
    }

    private static String workload(String apiVersion, String spec) {
        return snap("'workloads':[{'apiVersion':'" + apiVersion + "','kind':'Workload','metadata':{'name':'wl',"
                + "'namespace':'ns'},'spec':" + spec + "}]");
    }

    private static String pod(String metadata, String spec) {
        return snap("'pods':[{'metadata':{'name':'p','namespace':'ns'" + metadata + "},'spec':" + spec + "}]");
    }

    static Stream<Arguments> rules() {
        String v1b1 = "scheduling.k8s.io/v1beta1";
        String v1a2 = "scheduling.k8s.io/v1alpha2";
        String v1a1 = "scheduling.k8s.io/v1alpha1";
        String volcano = "scheduling.volcano.sh/v1beta1";
        String cosched = "scheduling.x-k8s.io/v1alpha1";
        return Stream.of(
                Arguments.of("an unknown PodGroup apiVersion", group("scheduling.k8s.io/v9", "{" + GANG + "}"),
                        NOT_SUPPORTED, "snapshot.podGroups[0].apiVersion"),
                Arguments.of("a v1alpha1 PodGroup (1.35 had none)", group(v1a1, "{" + GANG + "}"),
                        NOT_SUPPORTED, "snapshot.podGroups[0].apiVersion"),
                Arguments.of("an unknown Workload apiVersion", workload(volcano, "{}"),
                        NOT_SUPPORTED, "snapshot.workloads[0].apiVersion"),
                Arguments.of("a v1beta1 disruptionMode as a string", group(v1b1, "{" + GANG + ",'disruptionMode':'Pod'}"),
                        INVALID, "snapshot.podGroups[0].spec.disruptionMode"),
                Arguments.of("a v1alpha2 disruptionMode as a struct",
                        group(v1a2, "{" + GANG + ",'disruptionMode':{'all':{}}}"),
                        INVALID, "snapshot.podGroups[0].spec.disruptionMode"),
                Arguments.of("a v1beta1 disruptionMode with both members",
                        group(v1b1, "{" + GANG + ",'disruptionMode':{'all':{},'single':{}}}"),
                        INVALID, "snapshot.podGroups[0].spec.disruptionMode"),
                Arguments.of("a v1beta1 workloadRef without a templateName",
                        group(v1b1, "{" + GANG + ",'workloadRef':{'workloadName':'wl'}}"),
                        REQUIRED, "snapshot.podGroups[0].spec.workloadRef.templateName"),
                Arguments.of("a v1beta1 preemptionPolicy out of its enum",
                        group(v1b1, "{" + GANG + ",'preemptionPolicy':'Sometimes'}"),
                        NOT_SUPPORTED, "snapshot.podGroups[0].spec.preemptionPolicy"),
                Arguments.of("a v1beta1 parent composite name that is not a DNS subdomain",
                        group(v1b1, "{" + GANG + ",'parentCompositePodGroupName':'Not_A_Name'}"),
                        INVALID, "snapshot.podGroups[0].spec.parentCompositePodGroupName"),
                Arguments.of("a Volcano minMember below 0", group(volcano, "{'minMember':-1}"),
                        INVALID, "snapshot.podGroups[0].spec.minMember"),
                Arguments.of("a coscheduling minResources that does not parse",
                        group(cosched, "{'minMember':2,'minResources':{'cpu':'lots'}}"),
                        INVALID, "snapshot.podGroups[0].spec.minResources[cpu]"),
                Arguments.of("a Volcano minTaskMember below 0", group(volcano, "{'minMember':2,'minTaskMember':{'w':-2}}"),
                        INVALID, "snapshot.podGroups[0].spec.minTaskMember[w]"),
                Arguments.of("a min-per-role annotation without a label key",
                        roles(v1a2, "leader=1", "{" + GANG + "}"), INVALID, ROLES_FIELD),
                Arguments.of("a min-per-role minimum below 1",
                        roles(v1b1, "role: leader=0", "{" + GANG + "}"), INVALID, ROLES_FIELD),
                Arguments.of("a min-per-role minimum that is not a number",
                        roles(cosched, "role: leader=x", "{'minMember':2}"), INVALID, ROLES_FIELD),
                Arguments.of("a min-per-role annotation on a basic PodGroup",
                        roles(v1a2, "role: leader=1", "{'schedulingPolicy':{'basic':{}}}"), INVALID, ROLES_FIELD),
                Arguments.of("a min-per-role annotation on a Volcano PodGroup without minMember",
                        roles(volcano, "role: leader=1", "{}"), INVALID, ROLES_FIELD),
                Arguments.of("a min-per-role annotation beside Volcano's minTaskMember",
                        roles(volcano, "role: leader=1", "{'minMember':2,'minTaskMember':{'w':2}}"), FORBIDDEN,
                        ROLES_FIELD),
                Arguments.of("a v1alpha1 Workload without podGroups", workload(v1a1, "{}"),
                        REQUIRED, "snapshot.workloads[0].spec.podGroups"),
                Arguments.of("a v1alpha1 Workload with two groups of one name",
                        workload(v1a1, "{'podGroups':[{'name':'w','policy':{'basic':{}}},{'name':'w','policy':{'basic':{}}}]}"),
                        DUPLICATE, "snapshot.workloads[0].spec.podGroups[1]"),
                Arguments.of("a v1alpha1 policy with a zero minCount",
                        workload(v1a1, "{'podGroups':[{'name':'w','policy':{'gang':{'minCount':0}}}]}"),
                        REQUIRED, "snapshot.workloads[0].spec.podGroups[0].policy.gang.minCount"),
                Arguments.of("a v1beta1 template with a string disruptionMode",
                        workload(v1b1, "{'podGroupTemplates':[{'name':'t'," + GANG + ",'disruptionMode':'PodGroup'}]}"),
                        INVALID, "snapshot.workloads[0].spec.podGroupTemplates[0].disruptionMode"),
                Arguments.of("a pod naming its group twice (schedulingGroup and Volcano annotation)",
                        pod(",'annotations':{'scheduling.k8s.io/group-name':'b'}", "{'schedulingGroup':{'podGroupName':'a'}}"),
                        FORBIDDEN, "snapshot.pods[0].metadata.annotations[scheduling.k8s.io/group-name]"),
                Arguments.of("a pod naming its group twice (workloadRef and coscheduling label)",
                        pod(",'labels':{'scheduling.x-k8s.io/pod-group':'b'}",
                                "{'workloadRef':{'name':'wl','podGroup':'w'}}"),
                        FORBIDDEN, "snapshot.pods[0].metadata.labels[scheduling.x-k8s.io/pod-group]"),
                Arguments.of("a workloadRef without its podGroup", pod("", "{'workloadRef':{'name':'wl'}}"),
                        REQUIRED, "snapshot.pods[0].spec.workloadRef.podGroup"),
                Arguments.of("a Job with an unknown completionMode",
                        snap("'jobs':[{'apiVersion':'batch/v1','metadata':{'name':'j'},'spec':{'completionMode':'Sorted'}}]"),
                        NOT_SUPPORTED, "snapshot.jobs[0].spec.completionMode"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void reportsTheRuleOfTheObjectsOwnShape(String name, String json, String reason, String field) throws Exception {
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(reason, field));
    }

    @Test
    void everyShapeInItsOwnFormIsValid() throws Exception {
        String json = snap("'podGroups':["
                + "{'apiVersion':'scheduling.k8s.io/v1alpha2','metadata':{'name':'a'},'spec':{" + GANG
                + ",'disruptionMode':'PodGroup'}},"
                + "{'apiVersion':'scheduling.k8s.io/v1beta1','metadata':{'name':'b'},'spec':{" + GANG
                + ",'disruptionMode':{'all':{}},'preemptionPolicy':'Never','parentCompositePodGroupName':'c',"
                + "'workloadRef':{'workloadName':'wl','templateName':'t'}}},"
                + "{'apiVersion':'scheduling.volcano.sh/v1beta1','metadata':{'name':'c'},'spec':{'minMember':3,"
                + "'queue':'default','minResources':{'cpu':'3'},'minTaskMember':{'w':3}}},"
                + "{'apiVersion':'scheduling.x-k8s.io/v1alpha1','metadata':{'name':'d'},'spec':{'minMember':3,"
                + "'scheduleTimeoutSeconds':10}},"
                + "{'apiVersion':'scheduling.k8s.io/v1alpha2','metadata':{'name':'e','annotations':"
                + "{'muster.dev/min-per-role':'app.kubernetes.io/component: leader=1,worker=4'}},'spec':{" + GANG + "}},"
                + "{'apiVersion':'scheduling.x-k8s.io/v1alpha1','metadata':{'name':'f','annotations':"
                + "{'muster.dev/min-per-role':'role: ps=9'}},'spec':{'minMember':1}}],"
                + "'workloads':[{'apiVersion':'scheduling.k8s.io/v1alpha1','metadata':{'name':'w1'},"
                + "'spec':{'podGroups':[{'name':'w','policy':{'gang':{'minCount':2}}}]}},"
                + "{'apiVersion':'scheduling.k8s.io/v1beta1','metadata':{'name':'wl'},"
                + "'spec':{'podGroupTemplates':[{'name':'t'," + GANG + ",'disruptionMode':{'single':{}}}]}}]");
        assertThat(validator.validate(read(json)).list()).isEmpty();
    }

    @Test
    void twoShapesNamingTheSameGroupAreDuplicates() throws Exception {
        String json = snap("'podGroups':["
                + "{'apiVersion':'scheduling.k8s.io/v1alpha2','metadata':{'name':'g'},'spec':{" + GANG + "}},"
                + "{'apiVersion':'scheduling.volcano.sh/v1beta1','metadata':{'name':'g'},'spec':{'minMember':2}}]");
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(DUPLICATE, "snapshot.podGroups[1].metadata.name"));
    }

    @Test
    void aWayOfJoiningMustFitTheShapeOfTheGroupItNames() throws Exception {
        String json = snap("'podGroups':["
                + "{'apiVersion':'scheduling.k8s.io/v1alpha2','metadata':{'name':'g','namespace':'ns'},'spec':{" + GANG + "}},"
                + "{'apiVersion':'scheduling.volcano.sh/v1beta1','metadata':{'name':'v','namespace':'ns'},'spec':{'minMember':2}}],"
                + "'pods':[{'metadata':{'name':'a','namespace':'ns','annotations':{'scheduling.k8s.io/group-name':'g'}}},"
                + "{'metadata':{'name':'b','namespace':'ns'},'spec':{'schedulingGroup':{'podGroupName':'v'}}}]");
        assertThat(validator.validate(read(json)).list()).extracting(Cause::reason, Cause::field).containsExactly(
                tuple(INVALID, "snapshot.pods[0].metadata.annotations[scheduling.k8s.io/group-name]"),
                tuple(INVALID, "snapshot.pods[1].spec.schedulingGroup.podGroupName"));
    }

    @Test
    void aDisruptionModeOfAnotherJsonTypeIsABadRequest() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> read(group("scheduling.k8s.io/v1beta1",
                "{" + GANG + ",'disruptionMode':3}"))).isInstanceOf(dev.muster.adapter.kube.DecodeException.class);
    }

    @Test
    void aWorkloadGroupMayBeNamedInTheRequest() throws Exception {
        String ok = snap("'pods':[]").replace("}}", "},'podGroups':['ns/wl/workers/r0', 'ns/wl/workers']}");
        assertThat(validator.validate(read(ok)).list()).isEmpty();
        String bad = snap("'pods':[]").replace("}}", "},'podGroups':['ns/wl/Workers']}");
        assertThat(validator.validate(read(bad)).list()).extracting(Cause::field).containsExactly("podGroups[0]");
    }

    private static RequestDocument read(String json) throws Exception {
        return CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }
}
