package dev.muster.adapter.kube;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.core.dra.ResourceClaim;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Claims made from one template carry equal specs: the mapping compiles one spec for them all, and one namespace
 * string per namespace, instead of one of each per claim; a claim whose spec differs keeps its own.
 */
class ClaimSpecSharingTest {
    private static String claim(String namespace, String name, String deviceClass) {
        return """
                {"metadata": {"namespace": "%s", "name": "%s", "uid": "u-%s"},
                 "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "%s"}}]}}}"""
                .formatted(namespace, name, name, deviceClass);
    }

    @Test
    void equalSpecsAreOneObjectAndANamespaceOneString() throws Exception {
        String body = "{\"snapshot\": {\"resourceClaims\": [" + String.join(",",
                claim("batch", "a", "gpu.example.com"), claim("batch", "b", "gpu.example.com"),
                claim("train", "c", "gpu.example.com"), claim("batch", "d", "other.example.com")) + "]}}";
        RequestDocument doc = new KubeCodec(KubeCodec.Limits.DEFAULT).readJson(body.getBytes(StandardCharsets.UTF_8));
        List<ResourceClaim> claims = KubeMapper.toDecisionRequest(doc, CelSelectors.shared()::compile).dra()
                .resourceClaims();

        assertThat(claims).extracting(ResourceClaim::name).containsExactly("a", "b", "c", "d");
        assertThat(claims.get(1).spec()).isSameAs(claims.get(0).spec());
        assertThat(claims.get(2).spec()).isSameAs(claims.get(0).spec()); // another namespace, the same spec
        assertThat(claims.get(3).spec()).isNotEqualTo(claims.get(0).spec());
        assertThat(claims.get(3).spec().requests().get(0).exactly().deviceClassName()).isEqualTo("other.example.com");
        assertThat(claims.get(1).namespace()).isSameAs(claims.get(0).namespace());
        assertThat(claims.get(3).namespace()).isSameAs(claims.get(0).namespace());
        assertThat(claims.get(2).namespace()).isEqualTo("train");
    }
}
