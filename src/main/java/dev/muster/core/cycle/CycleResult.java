package dev.muster.core.cycle;


import java.util.List;

/**
 * The outcome of a PodGroup cycle over one placement. When {@code feasible}, the placed members are still assumed in
 * the snapshot (the caller commits them by keeping them, or rolls back); otherwise nothing is assumed.
 *
 * @param members one result per pending member, in cycle order
 * @param search  the bounded search's report (ran=false when it did not run)
 */
public record CycleResult(boolean feasible, List<MemberResult> members, int placed, SearchReport search) {
}
