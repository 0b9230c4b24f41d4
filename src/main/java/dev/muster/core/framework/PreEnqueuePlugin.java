package dev.muster.core.framework;

/**
 * Decides whether a PodGroup may enter a cycle at all (upstream: whether its pods may enter the active queue).
 * Runs once per group, before anything is tried. Anything but Success keeps the group waiting, with the status's
 * reason as the message.
 */
public interface PreEnqueuePlugin extends Plugin {
    Status preEnqueue(GroupContext group);
}
