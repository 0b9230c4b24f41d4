package dev.muster.adapter.rest;

/** Shared OpenAPI texts of the REST resources. */
final class ApiDocs {
    static final String YAML = "application/yaml";
    static final String X_YAML = "application/x-yaml";
    static final String TEXT_YAML = "text/yaml";
    static final String REQUEST = "The cluster snapshot (real Kubernetes objects as `kubectl get -o json` prints them; "
            + "unknown fields are ignored), the PodGroups to decide and the options. JSON or YAML. "
            + "Muster's topology extensions are PodGroup annotations (the v1alpha2 API is unchanged): "
            + "`muster.dev/topology-levels` (comma-separated node label keys, tightest first; the tightest level with a "
            + "feasible domain wins, the spec's required key is the outermost), `muster.dev/topology-mode: Preferred` "
            + "(soft: when no domain fits, the fewest domains that hold the group, then every node) and "
            + "`muster.dev/placement-strategy: BestFit` (among feasible domains, the one leaving the least amount of "
            + "the requested resources stranded; default: upstream's placement scores) or `Balanced` (the members "
            + "spread evenly over the fewest domains that hold them, as Kueue's balanced placement). "
            + "`muster.dev/slices: \"<label key>=<size>[,<inner label key>=<size>]\"` places a gang in slices of that "
            + "size, each inside one domain of that level (inner entries split each slice further); minCount must be "
            + "a multiple of the outer size. "
            + "`muster.dev/min-per-role: \"<label key>: <role>=<n>[,<role>=<n>...]\"` gives a gang per-role minimums: "
            + "besides minCount, at least n bound or placed members whose value of that pod label is the role.";
    /** The example requests, served by the service itself (from openapi/examples/) at these paths. */
    static final String EXAMPLE = "/examples/training-job.json";
    static final String EXAMPLE_YAML = "/examples/training-job.yaml";
    static final String CHOICE_EXAMPLE = "/examples/cluster-choices.json";

    private ApiDocs() {
    }
}
