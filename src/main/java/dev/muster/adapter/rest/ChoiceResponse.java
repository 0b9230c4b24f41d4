package dev.muster.adapter.rest;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.muster.core.choice.ClusterChoice;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.ArrayList;
import java.util.List;

/** The {@code 200} body of {@code POST /v1/cluster-choices}: one choice per cluster, rank 1 first. */
@JsonPropertyOrder({"choices"})
@Schema(name = "ClusterChoiceResponse")
public record ChoiceResponse(List<Choice> choices) {

    @JsonPropertyOrder({"cluster", "rank", "fit", "decisions", "victims", "score", "message"})
    @Schema(name = "ClusterChoice")
    public record Choice(@Schema(description = "The cluster's name, as the request gives it") String cluster,
                         @Schema(description = "1 for the cluster that takes the workload best, then 2, 3, ...")
                         int rank,
                         @Schema(enumeration = {"Fits", "FitsWithPreemption", "DoesNotFit"},
                                 description = "Fits: every decision Scheduled, no victim, every pending pod of the "
                                         + "workload that is not gated placed. FitsWithPreemption: every decision "
                                         + "Scheduled or Preempting, at least one victim, every such pod placed or "
                                         + "nominated. DoesNotFit: anything else.") String fit,
                         @Schema(description = "The workload's decisions on this cluster, as POST /v1/decisions "
                                 + "gives them") List<DecisionResponse.DecisionDto> decisions,
                         @Schema(description = "Distinct pods the decisions evict") int victims,
                         @Schema(description = "Sum of the decisions' placement scores (the chosen topology "
                                 + "domain's PlacementScore, or its negated stranded capacity with BestFit; 0 for a "
                                 + "group without a topology constraint and for DoesNotFit): higher ranks first "
                                 + "among equals") long score,
                         @Schema(description = "Why the cluster ranks where it does, in one line") String message) {
    }

    public static ChoiceResponse of(List<ClusterChoice> choices) {
        List<Choice> out = new ArrayList<>(choices.size());
        for (ClusterChoice c : choices) {
            out.add(new Choice(c.cluster(), c.rank(), c.fit().name(), DecisionResponse.of(c.result()).decisions(),
                    c.victims(), c.score(), c.message()));
        }
        return new ChoiceResponse(out);
    }
}
