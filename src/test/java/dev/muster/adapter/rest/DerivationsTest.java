package dev.muster.adapter.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.muster.adapter.kube.KubeCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@code POST /v1/derivations} answers for Jobs that do and do not qualify. */
class DerivationsTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);

    private static JsonNode derive(String jobs) throws Exception {
        DerivationResource.DerivationRequest req = CODEC.readJson(("{'jobs':[" + jobs + "]}").replace('\'', '"')
                .getBytes(StandardCharsets.UTF_8), DerivationResource.DerivationRequest.class);
        byte[] out = DecisionResource.WRITER.writeValueAsBytes(DerivationResource.derive(req.jobs()));
        return new ObjectMapper().readTree(out).get("derivations");
    }

    @Test
    void anIndexedJobWithEqualCompletionsGetsAWorkloadAndAPodGroup() throws Exception {
        JsonNode d = derive("{'metadata':{'name':'train','namespace':'ml','uid':'u-1'},'spec':{'parallelism':4,"
                + "'completions':4,'completionMode':'Indexed'}}").get(0);
        assertThat(d.get("qualifies").asBoolean()).isTrue();
        assertThat(d.get("job").get("name").asText()).isEqualTo("train");
        JsonNode w = d.get("workload");
        String workload = w.get("metadata").get("name").asText();
        assertThat(workload).startsWith("train-").hasSizeGreaterThan("train-".length());
        assertThat(w.get("metadata").get("ownerReferences").get(0).get("kind").asText()).isEqualTo("Job");
        assertThat(w.get("metadata").get("ownerReferences").get(0).get("controller").asBoolean()).isTrue();
        assertThat(w.get("spec").get("controllerRef").get("apiGroup").asText()).isEqualTo("batch");
        assertThat(w.get("spec").get("podGroupTemplates").get(0).get("name").asText()).isEqualTo("train-pgt-0");
        assertThat(w.get("spec").get("podGroupTemplates").get(0).get("schedulingPolicy").get("gang")
                .get("minCount").asInt()).isEqualTo(4);
        JsonNode g = d.get("podGroup");
        assertThat(g.get("metadata").get("name").asText()).startsWith(workload + "-train-pgt-0-");
        assertThat(g.get("metadata").get("ownerReferences")).hasSize(2);
        assertThat(g.get("metadata").get("ownerReferences").get(1).get("kind").asText()).isEqualTo("Workload");
        assertThat(g.get("spec").get("podGroupTemplateRef").get("workload").get("workloadName").asText())
                .isEqualTo(workload);
        // the same Job always derives the same names; another uid another Workload name
        assertThat(derive("{'metadata':{'name':'train','namespace':'ml','uid':'u-1'},'spec':{'parallelism':4,"
                + "'completions':4,'completionMode':'Indexed'}}").get(0).get("workload").get("metadata").get("name")
                .asText()).isEqualTo(workload);
        assertThat(derive("{'metadata':{'name':'train','namespace':'ml','uid':'u-2'},'spec':{'parallelism':4,"
                + "'completions':4,'completionMode':'Indexed'}}").get(0).get("workload").get("metadata").get("name")
                .asText()).isNotEqualTo(workload);
    }

    @Test
    void eachRuleThatFailsIsTheReason() throws Exception {
        JsonNode d = derive("{'metadata':{'name':'a'},'spec':{'parallelism':1,'completions':1,'completionMode':'Indexed'}},"
                + "{'metadata':{'name':'b'},'spec':{'parallelism':3,'completions':3}},"
                + "{'metadata':{'name':'c'},'spec':{'parallelism':3,'completions':6,'completionMode':'Indexed'}},"
                + "{'metadata':{'name':'d'},'spec':{'parallelism':3,'completions':3,'completionMode':'Indexed',"
                + "'template':{'spec':{'schedulingGroup':{'podGroupName':'mine'}}}}}");
        assertThat(d).hasSize(4);
        for (JsonNode j : d) {
            assertThat(j.get("qualifies").asBoolean()).isFalse();
            assertThat(j.has("workload")).isFalse();
            assertThat(j.has("podGroup")).isFalse();
        }
        assertThat(d.get(0).get("reason").asText()).contains("parallelism");
        assertThat(d.get(1).get("reason").asText()).contains("Indexed");
        assertThat(d.get(2).get("reason").asText()).contains("completions");
        assertThat(d.get(3).get("reason").asText()).contains("schedulingGroup");
    }
}
