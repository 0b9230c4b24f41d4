package dev.muster.adapter.validation;

import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.KubeCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The pods a workload Job stands for are objects like the pods given: their names may not be taken already. */
class ChoiceRulesTest {
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private static final String NODE = "{\"metadata\": {\"name\": \"n1\"}, \"status\": {\"allocatable\": {\"cpu\": \"8\"}}}";
    private static final String JOB = "{\"metadata\": {\"name\": \"train\", \"namespace\": \"ml\", \"uid\": \"u1\"},"
            + " \"spec\": {\"parallelism\": 2, \"template\": {\"spec\": {\"containers\": [{\"name\": \"c\"}]}}}}";

    private Causes validate(String json) throws Exception {
        ChoiceDocument doc = codec.readJson(json.getBytes(StandardCharsets.UTF_8), ChoiceDocument.class);
        return validator.validateChoice(doc, name -> false, 32);
    }

    @Test
    void aJobPodNamedLikeAGivenPodOfAnotherOwnerIsADuplicate() throws Exception {
        Causes c = validate("{\"clusters\": [{\"name\": \"a\", \"snapshot\": {\"nodes\": [" + NODE + "]}}],"
                + " \"workload\": {\"jobs\": [" + JOB + "], \"pods\": [{\"metadata\": {\"name\": \"train-1\","
                + " \"namespace\": \"ml\"}, \"spec\": {\"containers\": [{\"name\": \"c\"}]}}]}}");
        assertThat(c.list()).singleElement().satisfies(x -> {
            assertThat(x.field()).isEqualTo("workload.jobs[0].metadata.name");
            assertThat(x.reason()).isEqualTo(Cause.DUPLICATE);
            assertThat(x.message()).isEqualTo("the pod ml/train-1 this Job stands for is also workload.pods[0]'s");
        });
    }

    @Test
    void aJobPodAnInlineClusterAlreadyHasIsADuplicate() throws Exception {
        Causes c = validate("{\"clusters\": [{\"name\": \"a\", \"snapshot\": {\"nodes\": [" + NODE + "], \"pods\": ["
                + "{\"metadata\": {\"name\": \"train-0\", \"namespace\": \"ml\"}, \"spec\": {\"nodeName\": \"n1\","
                + " \"containers\": [{\"name\": \"c\"}]}}]}}], \"workload\": {\"jobs\": [" + JOB + "]}}");
        assertThat(c.list()).singleElement().satisfies(x -> {
            assertThat(x.field()).isEqualTo("workload.jobs[0].metadata.name");
            assertThat(x.reason()).isEqualTo(Cause.DUPLICATE);
            assertThat(x.message()).isEqualTo("clusters[0] (a) already has the Pod ml/train-0 this Job stands for");
        });
    }

    @Test
    void aJobWhosePodsAreGivenStandsForNone() throws Exception {
        Causes c = validate("{\"clusters\": [{\"name\": \"a\", \"snapshot\": {\"nodes\": [" + NODE + "]}}],"
                + " \"workload\": {\"jobs\": [" + JOB + "], \"pods\": [{\"metadata\": {\"name\": \"train-x\","
                + " \"namespace\": \"ml\", \"labels\": {\"batch.kubernetes.io/controller-uid\": \"u1\"}},"
                + " \"spec\": {\"containers\": [{\"name\": \"c\"}]}}]}}");
        assertThat(c.list()).isEmpty();
    }
}
