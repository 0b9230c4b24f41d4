package dev.muster.adapter.clusterview;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.muster.adapter.kube.DecodeException;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzz test of a cluster-view file's decode: whatever the byte path reads as a kubectl List, Jackson reads as the
 * same part (the same objects of every kind, at the same item indexes, the same skipped kinds) or refuses it for the
 * same reason, and the byte path never throws. Seeds:
 * src/test/resources/dev/muster/adapter/clusterview/SnapshotFileFuzzTestInputs/.
 */
class SnapshotFileFuzzTest {
    private static final KubeCodec CODEC = new KubeCodec(new KubeCodec.Limits(32, 1 << 16, 32, 1 << 20));

    @FuzzTest
    void kubectlListAgreesWithJackson(byte[] body) {
        KubeList<Object> fast = CODEC.readKubectlList(body,
                kind -> SnapshotKind.ofKind(kind) == null ? new SnapshotPart.Skipped(kind) : null);
        if (fast == null) {
            return;
        }
        Object expected;
        try {
            expected = part(CODEC.readJson(body, SnapshotPart.Document.class));
        } catch (DecodeException e) {
            throw new AssertionError("the byte path read a file Jackson refuses: " + e.getMessage(), e);
        }
        Object actual = part(SnapshotPart.Document.ofList(fast.kind(), fast));
        if (expected instanceof String refused) {
            assertThat(actual).isEqualTo(refused); // both documents refused as a part, with the same reason
            return;
        }
        assertThat(actual).isInstanceOf(SnapshotPart.class);
        SnapshotPart e = (SnapshotPart) expected;
        SnapshotPart a = (SnapshotPart) actual;
        for (SnapshotKind k : SnapshotKind.values()) {
            assertThat(a.lists()[k.ordinal()]).as("%s", k).isEqualTo(e.lists()[k.ordinal()]);
            assertThat(a.items()[k.ordinal()]).as("%s", k).isEqualTo(e.items()[k.ordinal()]);
        }
        assertThat(a.skipped()).isEqualTo(e.skipped());
    }

    /** The document's part, or the reason it is none. */
    private static Object part(SnapshotPart.Document d) {
        try {
            return SnapshotPart.of(d);
        } catch (InvalidSnapshotException e) {
            return e.getMessage();
        }
    }
}
