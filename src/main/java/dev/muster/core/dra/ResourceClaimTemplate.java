package dev.muster.core.dra;

import java.util.Objects;

/** A {@code resource.k8s.io/v1} ResourceClaimTemplate: the claim spec the controller copies into each claim. */
public record ResourceClaimTemplate(String namespace, String name, ResourceClaimSpec spec) {
    public ResourceClaimTemplate {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(spec, "spec");
    }
}
