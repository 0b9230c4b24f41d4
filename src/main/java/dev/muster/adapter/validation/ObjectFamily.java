package dev.muster.adapter.validation;

import dev.muster.adapter.kube.RequestDocument;

/**
 * The rules of one family of snapshot objects (nodes; pods; PodGroups and Workloads; ...). {@link RequestValidator}
 * runs its families in a fixed order, so causes are reported family by family, list by list, item by item. A new
 * family is a new implementation plus one entry in {@link RequestValidator}'s list.
 */
interface ObjectFamily {
    /**
     * Adds a cause for every broken rule of this family's lists in {@code s}. {@code p} is the snapshot's path; it is
     * left as it was found.
     */
    void validate(RequestDocument.Snapshot s, ValidationLimits limits, FieldPath p, Causes c);
}
