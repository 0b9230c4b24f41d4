package dev.muster.core.decision;

/** The outcome of one PodGroup decision (CONTRACT.md §1). */
public enum Outcome {
    Scheduled, Preempting, Unschedulable, WaitingForMembers, PodGroupNotFound
}
