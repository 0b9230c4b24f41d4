package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * {@code status.resourceClaimStatuses} of pods and PodGroups: each entry names one of the object's
 * {@code spec.resourceClaims}, once, and a generated claim's name is a DNS subdomain.
 */
class ClaimStatusRulesTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private Causes validate(String json) throws Exception {
        return validator.validate(CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8)));
    }

    /** A pod with the claim entry "gpu" (from a template) whose status is {@code statuses}. */
    private static String pod(String statuses) {
        return "{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}],'pods':[{'metadata':{'name':'p','namespace':'ns'},"
                + "'spec':{'containers':[{'name':'main'}],'resourceClaims':[{'name':'gpu',"
                + "'resourceClaimTemplateName':'one-gpu'}]},'status':{'resourceClaimStatuses':" + statuses + "}}]}}";
    }

    /** A gang PodGroup with the claim entry "shared" whose status is {@code statuses}. */
    private static String podGroup(String statuses) {
        return "{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}],'podGroups':[{'apiVersion':"
                + "'scheduling.k8s.io/v1alpha2','kind':'PodGroup','metadata':{'name':'g','namespace':'ns'},'spec':"
                + "{'schedulingPolicy':{'gang':{'minCount':1}},'resourceClaims':[{'name':'shared',"
                + "'resourceClaimTemplateName':'one-gpu'}]},'status':{'resourceClaimStatuses':" + statuses + "}}]}}";
    }

    @Test
    void aStatusForEachEntryIsValidWithOrWithoutAGeneratedClaim() throws Exception {
        assertThat(validate(pod("[{'name':'gpu','resourceClaimName':'p-gpu-x7k2p'}]")).list()).isEmpty();
        assertThat(validate(pod("[{'name':'gpu'}]")).list()).isEmpty();
        assertThat(validate(podGroup("[{'name':'shared','resourceClaimName':'g-shared-4q8zt'}]")).list()).isEmpty();
    }

    @Test
    void aPodsStatusMustNameOneOfItsEntriesOnceAndAValidClaim() throws Exception {
        assertThat(validate(pod("[{'resourceClaimName':'p-gpu-x7k2p'}]")).list())
                .extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(Cause.REQUIRED, "snapshot.pods[0].status.resourceClaimStatuses[0].name"));
        assertThat(validate(pod("[{'name':'tpu'}]")).list())
                .extracting(Cause::reason, Cause::field, Cause::message)
                .containsExactly(tuple(Cause.INVALID, "snapshot.pods[0].status.resourceClaimStatuses[0].name",
                        "must match the name of an entry in `spec.resourceClaims`"));
        assertThat(validate(pod("[{'name':'gpu'},{'name':'gpu','resourceClaimName':'p-gpu-x7k2p'}]")).list())
                .extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(Cause.DUPLICATE, "snapshot.pods[0].status.resourceClaimStatuses[1].name"));
        assertThat(validate(pod("[{'name':'gpu','resourceClaimName':'P_gpu'}]")).list())
                .extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(Cause.INVALID,
                        "snapshot.pods[0].status.resourceClaimStatuses[0].resourceClaimName"));
    }

    @Test
    void aPodGroupsStatusIsCheckedAgainstItsOwnEntries() throws Exception {
        assertThat(validate(podGroup("[{'name':'gpu'}]")).list())
                .extracting(Cause::reason, Cause::field)
                .containsExactly(tuple(Cause.INVALID, "snapshot.podGroups[0].status.resourceClaimStatuses[0].name"));
    }
}
