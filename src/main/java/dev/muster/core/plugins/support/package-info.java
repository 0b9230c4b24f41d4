/**
 * Helpers for the in-tree plugins, kept outside any one plugin's package: a pod's required node affinity
 * ({@link RequiredNodeAffinity}), taint and toleration matching ({@link TaintMatching}), kube-scheduler's score
 * normalizations ({@link NormalizeScores}) and counts per topology domain ({@link TopologyCounts}). What it holds has
 * no one topic, so the package is named for its role, as upstream's {@code framework/plugins/helper} is. Not a
 * plugin: plugins may import this package, never each other.
 */
package dev.muster.core.plugins.support;
