package dev.muster.adapter;

import dev.muster.adapter.cel.CelSelectors;
import dev.muster.adapter.kube.KubeMapper;
import dev.muster.adapter.kube.RequestDocument;
import dev.muster.adapter.validation.Causes;
import dev.muster.adapter.validation.RequestValidator;
import dev.muster.adapter.validation.ValidationLimits;

/**
 * What every fuzz test asks of a decoded request: validation answers (causes or none) without throwing, and a
 * request without causes compiles into the core model without throwing, since anything compile throws on a
 * validated request is a validation gap (answered 400 at best, not the 422 with the field's path it should be).
 * Small list limits keep a fuzzed document from spending its time on size.
 */
public final class FuzzRequests {
    private static final RequestValidator VALIDATOR = new RequestValidator(
            new ValidationLimits(1_000, 1_000, 1_000, 1_000, 50));

    private FuzzRequests() {
    }

    /** Validates {@code doc} and, when valid, compiles it; any exception escapes as the fuzz test's finding. */
    public static void validateAndCompile(RequestDocument doc) {
        Causes causes = VALIDATOR.validate(doc);
        if (causes.isEmpty()) {
            KubeMapper.toDecisionRequest(doc, CelSelectors.shared()::compile);
        } else if (causes.list().isEmpty()) {
            throw new AssertionError("causes counted but none listed");
        }
    }
}
