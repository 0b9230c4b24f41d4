package dev.muster.adapter.metrics;

/**
 * Where the extender reports each webhook call it answered: the verb ({@code filter}, {@code prioritize},
 * {@code preempt}, {@code bind}), whether the answer was a success or an error the scheduler will see, and the time
 * from reading the body to the answer. The composition root provides the implementation.
 */
public interface ExtenderRecorder {
    String SUCCESS = "success";
    /** The answer carries an {@code Error} (or is a 400): the scheduler treats it as this extender's failure. */
    String ERROR = "error";

    ExtenderRecorder NONE = (verb, result, nanos) -> {
    };

    void record(String verb, String result, long nanos);
}
