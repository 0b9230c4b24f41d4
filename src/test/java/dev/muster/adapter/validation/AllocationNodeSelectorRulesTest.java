package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node selector term without an operator in a claim's allocation (found by fuzzing: it passed validation and
 * failed compiling) is a 422 cause naming the field.
 */
class AllocationNodeSelectorRulesTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final RequestValidator VALIDATOR = new RequestValidator(ValidationLimits.DEFAULT);

    @Test
    void aTermWithoutAnOperatorIsACause() throws Exception {
        String json = "{\"snapshot\":{\"nodes\":[{\"metadata\":{\"name\":\"node-a\"}}],\"resourceClaims\":[{"
                + "\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\"},\"spec\":{\"devices\":{\"requests\":[]}},"
                + "\"status\":{\"allocation\":{\"nodeSelector\":{\"nodeSelectorTerms\":[{\"matchFields\":[{"
                + "\"key\":\"metadata.name\",\"values\":[\"node-a\"]}]}]}}}}]}}";
        List<Cause> causes = VALIDATOR.validate(CODEC.readJson(json.getBytes(StandardCharsets.UTF_8))).list();
        assertThat(causes).extracting(Cause::field).contains(
                "snapshot.resourceClaims[0].status.allocation.nodeSelector.nodeSelectorTerms[0].matchFields[0].operator");
    }
}
