package dev.muster.core.cycle;

import dev.muster.core.framework.PodInfo;

/**
 * What a cycle did with one pending member: the node it was placed on (snapshot index), or -1 and why not —
 * either the diagnosis of a pod that fits nowhere, or the message of a Permit that rejected it.
 */
public record MemberResult(PodInfo pod, int node, Diagnosis diagnosis, String rejection) {
    public boolean placed() {
        return node >= 0;
    }

    /** The member's own failure message in kube-scheduler's words. */
    public String message() {
        if (diagnosis != null) {
            return diagnosis.fitError();
        }
        return rejection;
    }
}
