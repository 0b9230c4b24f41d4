package dev.muster.adapter.kube;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A cluster-choice body reads the same on the byte path as with Jackson, and errors are Jackson's. */
class ChoiceBytePathTest {
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

    @Test
    void everyCommittedChoiceBodyReadsAsJacksonReadsIt() throws Exception {
        List<Path> bodies = new ArrayList<>();
        bodies.add(Path.of("openapi/examples/cluster-choices.json"));
        try (Stream<Path> dirs = Files.list(Path.of("src/test/resources/golden-choices"))) {
            dirs.filter(Files::isDirectory).sorted().forEach(d -> bodies.add(d.resolve("request.json")));
        }
        assertThat(bodies).hasSizeGreaterThan(5);
        for (Path b : bodies) {
            byte[] bytes = Files.readAllBytes(b);
            ChoiceDocument fast = codec.readChoiceBytes(bytes);
            assertThat(fast).as(b + " on the byte path").isNotNull();
            assertThat(fast).as(b.toString())
                    .isEqualTo(codec.readJson(bytes, ChoiceDocument.class));
        }
    }

    @Test
    void aWrongTypeIsJacksonsErrorWithItsPath() {
        byte[] body = "{\"clusters\": [{\"name\": \"a\", \"snapshot\": {\"nodes\": \"x\"}}], \"workload\": {}}"
                .getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> codec.readChoiceJson(body)).isInstanceOf(DecodeException.class)
                .hasMessageContaining("clusters[0].snapshot.nodes");
    }
}
