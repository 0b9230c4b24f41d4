package dev.muster.core.decision;

/** The outcome of one PodGroup decision (docs/api.md). */
public enum Outcome {
    Scheduled, Preempting, Unschedulable, WaitingForMembers, PodGroupNotFound
}
