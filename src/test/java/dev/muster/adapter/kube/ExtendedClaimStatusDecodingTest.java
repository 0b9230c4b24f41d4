package dev.muster.adapter.kube;

import dev.muster.core.dra.ResourceClaim;
import dev.muster.core.model.ExtendedClaimStatus;
import dev.muster.core.model.Pod;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pod.status.extendedResourceClaimStatus} reads alike on the byte path, the Jackson path and from YAML, and
 * reaches the core pod.
 */
class ExtendedClaimStatusDecodingTest {
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

    private static final String JSON = ("{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}],'pods':[{'metadata':"
            + "{'name':'p','namespace':'ml','uid':'u'},'spec':{'nodeName':'n1','containers':[{'name':'main',"
            + "'resources':{'requests':{'example.com/gpu':'2'}}}]},'status':{'phase':'Running',"
            + "'extendedResourceClaimStatus':{'requestMappings':[{'containerName':'main','resourceName':"
            + "'example.com/gpu','requestName':'container-0-request-0','futureField':1}],"
            + "'resourceClaimName':'p-extended-resources-x7k2p','anotherFutureField':{'a':[1]}},"
            + "'podIP':'10.0.0.1'}}]}}").replace('\'', '"');

    private static final String YAML = """
            snapshot:
              nodes:
              - metadata: {name: n1}
              pods:
              - metadata: {name: p, namespace: ml, uid: u}
                spec:
                  nodeName: n1
                  containers:
                  - name: main
                    resources:
                      requests: {example.com/gpu: "2"}
                status:
                  phase: Running
                  extendedResourceClaimStatus:
                    requestMappings:
                    - containerName: main
                      resourceName: example.com/gpu
                      requestName: container-0-request-0
                    resourceClaimName: p-extended-resources-x7k2p
            """;

    @Test
    @DisplayName("the status reads the same on the byte path, the Jackson path and from YAML; unknown fields are skipped")
    void sameOnEveryPath() throws Exception {
        byte[] body = JSON.getBytes(StandardCharsets.UTF_8);
        RequestDocument fast = codec.readBytes(body);
        RequestDocument jackson = codec.readJackson(body);
        RequestDocument yaml = codec.readYaml(YAML.getBytes(StandardCharsets.UTF_8));

        assertThat(fast).as("the byte path takes the request").isNotNull();
        Kube.ExtendedClaimStatus status = fast.snapshot().pods().get(0).status().extendedResourceClaimStatus();
        assertThat(status).isEqualTo(new Kube.ExtendedClaimStatus(List.of(new Kube.ExtendedRequestMapping("main",
                "example.com/gpu", "container-0-request-0")), "p-extended-resources-x7k2p"));
        assertThat(jackson.snapshot().pods()).isEqualTo(fast.snapshot().pods());
        assertThat(yaml.snapshot().pods()).isEqualTo(fast.snapshot().pods());
    }

    @Test
    @DisplayName("the core pod carries the claim name and the mappings")
    void reachesTheCorePod() throws Exception {
        Pod p = KubeMapper.toDecisionRequest(codec.readJson(JSON.getBytes(StandardCharsets.UTF_8))).cluster().pods()
                .get(0);
        assertThat(p.extendedResourceClaim()).isEqualTo(new ExtendedClaimStatus("p-extended-resources-x7k2p",
                List.of(new ExtendedClaimStatus.Mapping("main", "example.com/gpu", "container-0-request-0"))));
        assertThat(p.usesDevices()).isTrue();
    }

    @Test
    @DisplayName("a pod without the status has none")
    void absent() throws Exception {
        String json = JSON.replaceAll("\"extendedResourceClaimStatus\":\\{.*?\\}\\},", "");
        Pod p = KubeMapper.toDecisionRequest(codec.readJson(json.getBytes(StandardCharsets.UTF_8))).cluster().pods()
                .get(0);
        assertThat(json).doesNotContain("extendedResourceClaimStatus");
        assertThat(p.extendedResourceClaim()).isNull();
    }

    /** A claim with these annotations and owner references, as kubectl prints one. */
    private ResourceClaim claimWith(String annotations, String owners) throws Exception {
        String json = ("{'snapshot':{'nodes':[{'metadata':{'name':'n1'}}],'resourceClaims':[{'apiVersion':"
                + "'resource.k8s.io/v1','kind':'ResourceClaim','metadata':{'name':'p-extended-resources-x7k2p',"
                + "'namespace':'ml','uid':'c1','annotations':{" + annotations + "},'ownerReferences':[" + owners + "]},"
                + "'spec':{'devices':{'requests':[{'name':'container-0-request-0','exactly':{'deviceClassName':'gpu',"
                + "'count':2}}]}}}]}}").replace('\'', '"');
        return KubeMapper.toDecisionRequest(codec.readJson(json.getBytes(StandardCharsets.UTF_8))).dra()
                .resourceClaims().get(0);
    }

    private static final String MARKED = "'resource.kubernetes.io/extended-resource-claim':'true'";

    private static String owner(String kind, String name, String uid, boolean controller) {
        return "{'apiVersion':'v1','kind':'" + kind + "','name':'" + name + "','uid':'" + uid + "','controller':"
                + controller + ",'blockOwnerDeletion':true}";
    }

    @Test
    @DisplayName("a claim annotated as made for extended resources is tied to its controlling owner, by name and uid")
    void claimMadeForAPod() throws Exception {
        assertThat(claimWith(MARKED, owner("ReplicaSet", "rs", "r", false) + "," + owner("Pod", "p", "u", true))
                .madeFor()).isEqualTo(new ResourceClaim.MadeFor("p", "u"));
    }

    @Test
    @DisplayName("without the annotation set to \"true\", or without a controlling owner, a claim is no pod's "
            + "extended-resource claim")
    void claimNotMadeForAPod() throws Exception {
        assertThat(claimWith("", owner("Pod", "p", "u", true)).madeFor()).isNull();
        assertThat(claimWith("'resource.kubernetes.io/extended-resource-claim':'True'", owner("Pod", "p", "u", true))
                .madeFor()).isNull();
        assertThat(claimWith(MARKED, owner("Pod", "p", "u", false)).madeFor()).isNull();
        assertThat(claimWith(MARKED, "").madeFor()).isNull();
    }
}
