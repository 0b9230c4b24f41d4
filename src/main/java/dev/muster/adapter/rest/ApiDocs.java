package dev.muster.adapter.rest;

/** Shared OpenAPI texts of the REST resources. */
final class ApiDocs {
    static final String YAML = "application/yaml";
    static final String X_YAML = "application/x-yaml";
    static final String TEXT_YAML = "text/yaml";
    static final String REQUEST = "The cluster snapshot (real Kubernetes objects as `kubectl get -o json` prints them; "
            + "unknown fields are ignored), the PodGroups to decide and the options. JSON or YAML.";
    static final String EXAMPLE = "examples/training-job.json";

    private ApiDocs() {
    }
}
