package dev.muster.adapter.kube;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The byte path reports an object field name it does not know as unknown, and record decoders skip unknown names: a
 * field a decoder matches but {@link FieldNames} lacks would be dropped silently on the fast path (and read on the
 * Jackson path), so the two paths would disagree. Every case label of the decoders must be a known name.
 */
class FieldNamesTest {
    private static final Pattern CASE = Pattern.compile("case ((?:\"[^\"]+\"(?:,\\s*)?)+)\\s*->");
    private static final Pattern NAME = Pattern.compile("\"([^\"]+)\"");

    @Test
    @DisplayName("every field name a decoder switches on is a known field name of the byte path")
    void decoderCaseLabelsAreKnown() throws IOException {
        List<String> labels = new ArrayList<>();
        try (Stream<Path> files = Files.list(Path.of("src/main/java/dev/muster/adapter/kube"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                Matcher m = CASE.matcher(Files.readString(f));
                while (m.find()) {
                    Matcher n = NAME.matcher(m.group(1));
                    while (n.find()) {
                        labels.add(n.group(1));
                    }
                }
            }
        }
        assertThat(labels).as("case labels found").hasSizeGreaterThan(50).contains("compositePodGroups");
        TreeSet<String> unknown = new TreeSet<>();
        for (String label : labels) {
            byte[] b = label.getBytes(StandardCharsets.UTF_8);
            if (FieldNames.find(b, 0, b.length, Words.hash(b, 0, b.length)) == null) {
                unknown.add(label);
            }
        }
        assertThat(unknown).as("decoder field names missing from FieldNames").isEmpty();
    }

    @Test
    @DisplayName("a snapshot's compositePodGroups reads the same on the byte path as on the Jackson path")
    void compositesOnBothPaths() throws Exception {
        byte[] body = ("{\"snapshot\":{\"compositePodGroups\":[{\"apiVersion\":\"scheduling.k8s.io/v1alpha3\","
                + "\"metadata\":{\"name\":\"train\"},\"spec\":{\"schedulingPolicy\":{\"gang\":{\"minGroupCount\":2}}}}]}}")
                .getBytes(StandardCharsets.UTF_8);
        KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);

        RequestDocument fast = codec.readBytes(body);
        RequestDocument jackson = codec.readJackson(body);

        assertThat(fast).isNotNull();
        assertThat(fast.snapshot().compositePodGroups()).hasSize(1);
        assertThat(fast.snapshot().compositePodGroups()).isEqualTo(jackson.snapshot().compositePodGroups());
        assertThat(fast.snapshot().compositePodGroups().get(0).spec().schedulingPolicy().gang().minGroupCount())
                .isEqualTo(2);
    }
}
