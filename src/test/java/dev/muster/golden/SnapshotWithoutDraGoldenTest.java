package dev.muster.golden;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.KubeCodec;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.rest.DecisionResponse;
import dev.muster.core.decision.DecisionEngine;
import dev.muster.core.decision.DecisionRequest;
import dev.muster.core.decision.EngineConfig;
import dev.muster.core.dra.ClaimCatalog;
import dev.muster.core.dra.DraObjects;
import dev.muster.core.model.ClusterState;
import dev.muster.core.snapshot.ClusterSnapshot;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A snapshot compiled before the request's DRA objects are decoded and completed with them afterwards
 * ({@link ClusterSnapshot#withoutDra}, {@link ClusterSnapshot#withDra}: what a compile helper does while the DRA
 * lists of a large request are still arriving) decides every golden case to the same bytes as the snapshot compiled
 * from the whole request. Requests with extended-resource requests get none: their compilation needs the classes.
 */
class SnapshotWithoutDraGoldenTest {
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
    private final KubeCodec codec = new KubeCodec(KubeCodec.Limits.DEFAULT);
    private final DecisionEngine engine = new DecisionEngine(EngineConfig.DEFAULT);

    @Test
    void completedSnapshotsDecideAsWholeOnes() throws Exception {
        List<Path> cases = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(GoldenDecisionTest.ROOT)) {
            dirs.filter(d -> Files.exists(d.resolve("request.json"))).sorted().forEach(cases::add);
        }
        int completed = 0;
        int withDevices = 0;
        for (Path dir : cases) {
            RequestDocument doc = codec.readJson(Files.readAllBytes(dir.resolve("request.json")));
            ClusterState state = KubeMapper.toClusterState(doc.snapshot());
            DraObjects dra = KubeMapper.draObjects(doc.snapshot(), CelSelectors.shared()::compile);
            DecisionRequest request = KubeMapper.toDecisionRequest(doc, state, dra);
            ClusterSnapshot base = ClusterSnapshot.withoutDra(state);
            boolean extended = state.pods().stream().anyMatch(p -> !p.extendedRequests().isEmpty());
            assertThat(base == null).as("no early snapshot exactly when a pod asks for extended resources: " + dir)
                    .isEqualTo(extended);
            if (base == null) {
                continue;
            }
            ClaimCatalog catalog = new ClaimCatalog(dra).warm();
            String whole = decide(new ClusterSnapshot(state, dra, () -> catalog), request);
            String early = decide(base.withDra(dra, () -> catalog), request);
            assertThat(early).as("decision of " + dir.getFileName()).isEqualTo(whole);
            completed++;
            if (!dra.isEmpty()) {
                withDevices++;
            }
        }
        assertThat(completed).as("cases compiled early").isGreaterThan(cases.size() / 2);
        assertThat(withDevices).as("cases with DRA objects among them").isPositive();
    }

    private String decide(ClusterSnapshot snapshot, DecisionRequest request) throws Exception {
        return JSON.writeValueAsString(DecisionResponse.of(engine.decide(snapshot, request.podGroups(),
                request.options(), () -> false)));
    }
}
