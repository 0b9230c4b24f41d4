package dev.muster.adapter.kube;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.muster.adapter.FuzzRequests;

/**
 * Fuzz tests of the whole REST request decode, JSON (the streaming decoders, byte path first) and YAML, followed by
 * validation and compilation: a body is a valid request, a 422 (causes) or a {@link DecodeException} (a 400), and
 * never any other exception. Seeds: src/test/resources/dev/muster/adapter/kube/RequestDecodeFuzzTestInputs/.
 */
class RequestDecodeFuzzTest {
    private static final KubeCodec CODEC = new KubeCodec(new KubeCodec.Limits(32, 1 << 16, 32, 1 << 20));

    @FuzzTest
    void json(byte[] body) {
        RequestDocument doc;
        try {
            doc = CODEC.readJson(body);
        } catch (DecodeException expected) {
            return;
        }
        FuzzRequests.validateAndCompile(doc);
    }

    @FuzzTest
    void yaml(byte[] body) {
        RequestDocument doc;
        try {
            doc = CODEC.readYaml(body);
        } catch (DecodeException expected) {
            return;
        }
        FuzzRequests.validateAndCompile(doc);
    }
}
