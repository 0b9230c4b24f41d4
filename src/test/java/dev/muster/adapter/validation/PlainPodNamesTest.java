package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.RequestDocument;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static dev.muster.adapter.validation.Cause.INVALID;
import static dev.muster.adapter.validation.Cause.NOT_FOUND;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The request's {@code pods}: every entry that does not name a pending plain pod is a cause on {@code pods[i]}. */
class PlainPodNamesTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final RequestValidator validator = new RequestValidator(ValidationLimits.DEFAULT);

    private static final String PODS = "'pods':["
            + "{'metadata':{'name':'plain','namespace':'ns'},'spec':{}},"
            + "{'metadata':{'name':'bound','namespace':'ns'},'spec':{'nodeName':'n1'}},"
            + "{'metadata':{'name':'member','namespace':'ns'},'spec':{'schedulingGroup':{'podGroupName':'pg'}}},"
            + "{'metadata':{'name':'cosched','namespace':'ns','labels':{'scheduling.x-k8s.io/pod-group':'team'}},'spec':{}}]";

    @Test
    void everyBadEntryIsACauseOnItsIndexAtOnce() throws Exception {
        Causes causes = validator.validate(read("{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}]," + PODS + "},"
                + "'pods':['ns/plain','ns/bound','ns/missing','ns/member','plain','ns/cosched','ns/Not_A_Name']}"));
        assertThat(causes.list()).extracting(Cause::reason, Cause::field).containsExactly(
                tuple(INVALID, "pods[1]"),
                tuple(NOT_FOUND, "pods[2]"),
                tuple(INVALID, "pods[3]"),
                tuple(INVALID, "pods[4]"),
                tuple(INVALID, "pods[5]"),
                tuple(INVALID, "pods[6]"));
        assertThat(causes.list().get(0).message()).contains("bound to node \"n1\"");
        assertThat(causes.list().get(1).message()).contains("no pod of that namespace and name");
        assertThat(causes.list().get(2).message()).contains("belongs to pod group \"ns/pg\"");
        assertThat(causes.list().get(3).message()).contains("must be \"<namespace>/<name>\"");
        assertThat(causes.list().get(4).message()).contains("belongs to pod group \"ns/team\"");
    }

    @Test
    void aPendingPlainPodIsAValidEntry() throws Exception {
        Causes causes = validator.validate(read("{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}]," + PODS + "},"
                + "'pods':['ns/plain']}"));
        assertThat(causes.list()).isEmpty();
    }

    private static RequestDocument read(String json) throws Exception {
        return CODEC.readJson(json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }
}
