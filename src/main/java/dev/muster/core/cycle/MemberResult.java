package dev.muster.core.cycle;

import dev.muster.core.framework.PodInfo;

/**
 * What a cycle did with one pending member: the node it was placed on (snapshot index), or -1 and why not —
 * either the diagnosis of a pod that fits nowhere, or the message of a Permit that rejected it. A placed member
 * records the order it was assumed in and how Reserve held it, so that the same choice can be assumed again.
 */
public record MemberResult(PodInfo pod, int node, Diagnosis diagnosis, String rejection, int sequence,
                           int alternative) {
    /** A member that is not placed. */
    public MemberResult(PodInfo pod, int node, Diagnosis diagnosis, String rejection) {
        this(pod, node, diagnosis, rejection, -1, 0);
    }

    /** A placed member: the {@code sequence}-th assumed in its cycle, held with Reserve alternative {@code alternative}. */
    static MemberResult placed(PodInfo pod, int node, int sequence, int alternative) {
        return new MemberResult(pod, node, null, null, sequence, alternative);
    }

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
