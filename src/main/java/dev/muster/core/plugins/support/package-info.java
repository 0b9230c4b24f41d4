/**
 * Helpers several in-tree plugins share (node selector matching, taint checks, score normalization). Not a
 * plugin: plugins may import this package, never each other.
 */
package dev.muster.core.plugins.support;
