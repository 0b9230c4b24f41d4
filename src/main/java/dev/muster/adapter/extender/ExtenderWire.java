package dev.muster.adapter.extender;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import dev.muster.adapter.kube.Kube;

import java.util.List;
import java.util.Map;

/**
 * The kube-scheduler extender wire types (k8s.io/kube-scheduler/extender/v1). The Go types carry no JSON tags, so
 * the scheduler writes the Go field names ({@code Pod}, {@code NodeNames}, ...) and reads answers
 * case-insensitively; {@link ExtenderCodec} writes exactly these names, in Go's field order, and reads keys in any
 * case. The Pods and Nodes inside are ordinary core/v1 objects, read with the lean {@link Kube} records.
 *
 * <p>Null versus empty follows Go's {@code encoding/json}: a nil pointer, slice or map prints {@code null}, an
 * unset string prints {@code ""}, an int64 prints {@code 0}.
 */
public final class ExtenderWire {
    private ExtenderWire() {
    }

    /** A core/v1 NodeList. Items stay as the JSON trees that were sent, so a filter answer echoes them verbatim. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"metadata", "items"})
    public record NodeList(@JsonProperty("metadata") Map<String, Object> metadata,
                           @JsonProperty("items") List<JsonNode> items) {
        public NodeList {
            metadata = metadata == null ? Map.of() : metadata;
        }
    }

    /** Filter and prioritize request: {@code Nodes} when the extender is not nodeCacheCapable, else {@code NodeNames}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"Pod", "Nodes", "NodeNames"})
    public record ExtenderArgs(@JsonProperty("Pod") Kube.Pod pod,
                               @JsonProperty("Nodes") NodeList nodes,
                               @JsonProperty("NodeNames") List<String> nodeNames) {
    }

    /** Filter answer. {@code FailedAndUnresolvableNodes} wins over {@code FailedNodes} for a node in both. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"Nodes", "NodeNames", "FailedNodes", "FailedAndUnresolvableNodes", "Error"})
    public record ExtenderFilterResult(@JsonProperty("Nodes") NodeList nodes,
                                       @JsonProperty("NodeNames") List<String> nodeNames,
                                       @JsonProperty("FailedNodes") Map<String, String> failedNodes,
                                       @JsonProperty("FailedAndUnresolvableNodes") Map<String, String> failedAndUnresolvableNodes,
                                       @JsonProperty("Error") String error) {
        public ExtenderFilterResult {
            error = error == null ? "" : error;
        }

        public static ExtenderFilterResult error(String message) {
            return new ExtenderFilterResult(null, null, null, null, message);
        }
    }

    /** One prioritize score, 0..10 ({@code MinExtenderPriority}..{@code MaxExtenderPriority}). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"Host", "Score"})
    public record HostPriority(@JsonProperty("Host") String host, @JsonProperty("Score") long score) {
        public HostPriority {
            host = host == null ? "" : host;
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"Pods", "NumPDBViolations"})
    public record Victims(@JsonProperty("Pods") List<Kube.Pod> pods,
                          @JsonProperty("NumPDBViolations") long numPDBViolations) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"UID"})
    public record MetaPod(@JsonProperty("UID") String uid) {
        public MetaPod {
            uid = uid == null ? "" : uid;
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"Pods", "NumPDBViolations"})
    public record MetaVictims(@JsonProperty("Pods") List<MetaPod> pods,
                              @JsonProperty("NumPDBViolations") long numPDBViolations) {
    }

    /** Preempt request: {@code NodeNameToVictims} when not nodeCacheCapable, else {@code NodeNameToMetaVictims}. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"Pod", "NodeNameToVictims", "NodeNameToMetaVictims"})
    public record ExtenderPreemptionArgs(@JsonProperty("Pod") Kube.Pod pod,
                                         @JsonProperty("NodeNameToVictims") Map<String, Victims> nodeNameToVictims,
                                         @JsonProperty("NodeNameToMetaVictims") Map<String, MetaVictims> nodeNameToMetaVictims) {
    }

    /** Preempt answer: always the meta form. An empty map drops every candidate. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"NodeNameToMetaVictims"})
    public record ExtenderPreemptionResult(@JsonProperty("NodeNameToMetaVictims") Map<String, MetaVictims> nodeNameToMetaVictims) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"PodName", "PodNamespace", "PodUID", "Node"})
    public record ExtenderBindingArgs(@JsonProperty("PodName") String podName,
                                      @JsonProperty("PodNamespace") String podNamespace,
                                      @JsonProperty("PodUID") String podUID,
                                      @JsonProperty("Node") String node) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    @JsonPropertyOrder({"Error"})
    public record ExtenderBindingResult(@JsonProperty("Error") String error) {
        public ExtenderBindingResult {
            error = error == null ? "" : error;
        }
    }
}
