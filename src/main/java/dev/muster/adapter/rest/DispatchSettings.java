package dev.muster.adapter.rest;

/**
 * The settings {@link RequestDispatcher} reads, produced from the application configuration by the composition root.
 *
 * @param inlineMaxBodySize largest buffered body, in bytes, read and decided on the event loop that received it
 *                          ({@code muster.http.inline-max-body-size}); 0 sends every request to the worker pool
 */
public record DispatchSettings(long inlineMaxBodySize) {
}
