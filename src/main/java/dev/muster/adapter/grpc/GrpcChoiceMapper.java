package dev.muster.adapter.grpc;

import dev.muster.adapter.kube.ChoiceDocument;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.core.choice.ClusterChoice;
import dev.muster.core.decision.Decision;
import dev.muster.grpc.v1.ChooseClusterRequest;
import dev.muster.grpc.v1.ChooseClusterResponse;

import java.util.List;

/**
 * {@code ChooseCluster}'s messages: the request → the {@link ChoiceDocument} REST decodes from a
 * {@code POST /v1/cluster-choices} body (every snapshot, and the workload, through {@link GrpcRequestMapper}'s
 * snapshot mapping, so the shared validator sees what it sees for REST and names the same paths), and the ranked
 * choices → the response, each decision as {@code Decide} gives it.
 *
 * <p>Presence as in {@link GrpcRequestMapper}: an empty {@code clusters} is null (REST's missing or empty list, both
 * {@code FieldValueRequired}), a {@code name} of "" is null, an unset {@code snapshot} is null (a watched cluster)
 * while a set but empty one is an empty snapshot, and an unset {@code workload} or {@code options} is null.
 */
final class GrpcChoiceMapper {
    private GrpcChoiceMapper() {
    }

    static ChoiceDocument toDocument(ChooseClusterRequest r) {
        List<ChoiceDocument.Cluster> clusters = null;
        if (r.getClustersCount() > 0) {
            clusters = new java.util.ArrayList<>(r.getClustersCount());
            for (int i = 0; i < r.getClustersCount(); i++) {
                var c = r.getClusters(i);
                clusters.add(new ChoiceDocument.Cluster(GrpcRequestMapper.str(c.getName()), c.hasSnapshot()
                        ? GrpcRequestMapper.snapshot(c.getSnapshot(), "clusters[" + i + "].snapshot") : null));
            }
        }
        RequestDocument.Snapshot workload = r.hasWorkload()
                ? GrpcRequestMapper.snapshot(r.getWorkload(), "workload") : null;
        RequestDocument.Options options = null;
        if (r.hasOptions()) {
            var o = r.getOptions();
            options = new RequestDocument.Options(o.hasPreemption() ? o.getPreemption() : null,
                    o.hasExplain() ? o.getExplain() : null);
        }
        return new ChoiceDocument(clusters, workload, options);
    }

    static ChooseClusterResponse toResponse(List<ClusterChoice> choices) {
        ChooseClusterResponse.Builder b = ChooseClusterResponse.newBuilder();
        for (ClusterChoice c : choices) {
            dev.muster.grpc.v1.ClusterChoice.Builder choice = dev.muster.grpc.v1.ClusterChoice.newBuilder()
                    .setCluster(c.cluster())
                    .setRank(c.rank())
                    .setFit(c.fit().name())
                    .setVictims(c.victims())
                    .setScore(c.score())
                    .setMessage(c.message() == null ? "" : c.message());
            for (Decision d : c.result().decisions()) {
                choice.addDecisions(GrpcResponseMapper.decision(d));
            }
            b.addChoices(choice);
        }
        return b.build();
    }
}
