package dev.muster.adapter.validation;

import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.RequestDocument;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The kind of a snapshot list sent as a list object: {@code List} or the part's typed list, nothing else. */
class ListObjectRulesTest {
    private static final KubeCodec CODEC = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private static final RequestValidator VALIDATOR = new RequestValidator(ValidationLimits.DEFAULT);
    private static final String NODE = "{\"metadata\":{\"name\":\"n0\"},\"status\":{\"allocatable\":{\"cpu\":\"4\"}}}";

    private static List<Cause> causes(String snapshot) throws Exception {
        RequestDocument doc = CODEC.readJson(("{\"snapshot\":" + snapshot + "}").getBytes(StandardCharsets.UTF_8));
        return VALIDATOR.validate(doc).list();
    }

    @Test
    void listAndTheTypedListAreAccepted() throws Exception {
        assertThat(causes("{\"nodes\":{\"kind\":\"List\",\"items\":[" + NODE + "]}}")).isEmpty();
        assertThat(causes("{\"nodes\":{\"kind\":\"NodeList\",\"items\":[" + NODE + "]},"
                + "\"podGroups\":{\"kind\":\"PodGroupList\",\"items\":[]},"
                + "\"resourceClaimTemplates\":{\"kind\":\"ResourceClaimTemplateList\",\"items\":[]}}")).isEmpty();
    }

    @Test
    void anotherKindIsNotSupportedOnThePartsKind() throws Exception {
        List<Cause> c = causes("{\"nodes\":{\"kind\":\"PodList\",\"items\":[" + NODE + "]},"
                + "\"priorityClasses\":{\"kind\":\"NodeList\",\"items\":[]}}");
        assertThat(c).extracting(Cause::field).containsExactly("snapshot.nodes.kind", "snapshot.priorityClasses.kind");
        assertThat(c).extracting(Cause::reason).containsOnly("FieldValueNotSupported");
        assertThat(c.get(0).summary()).contains("\"PodList\"");
        assertThat(c.get(0).message()).contains("\"List\", \"NodeList\"");
        assertThat(c.get(1).message()).contains("\"List\", \"PriorityClassList\"");
    }

    @Test
    void aMissingKindIsRequired() throws Exception {
        List<Cause> c = causes("{\"nodes\":{\"apiVersion\":\"v1\",\"items\":[" + NODE + "]}}");
        assertThat(c).extracting(Cause::field, Cause::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("snapshot.nodes.kind", "FieldValueRequired"));
    }

    @Test
    void anEmptyObjectIsAListObjectWithoutAKind() throws Exception {
        assertThat(causes("{\"nodes\":{}}")).extracting(Cause::field, Cause::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("snapshot.nodes.kind", "FieldValueRequired"));
    }

    @Test
    void itemsAreCheckedWithTheirArrayFormPaths() throws Exception {
        List<Cause> c = causes("{\"nodes\":{\"kind\":\"List\",\"items\":[" + NODE + ",{\"metadata\":{}}]}}");
        assertThat(c).extracting(Cause::field).containsExactly("snapshot.nodes[1].metadata.name");
    }

    @Test
    void theDerivationsJobsListIsCheckedToo() {
        Causes c = VALIDATOR.validateJobs(new dev.muster.adapter.kube.KubeList<>("v1", "PodList", List.of()));
        assertThat(c.list()).extracting(Cause::field, Cause::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("jobs.kind", "FieldValueNotSupported"));
    }
}
