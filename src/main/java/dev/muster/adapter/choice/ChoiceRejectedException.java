package dev.muster.adapter.choice;

import dev.muster.adapter.validation.Causes;

/** A choice whose workload cannot be added to a watched cluster as it is now (an object of that name exists). */
public final class ChoiceRejectedException extends RuntimeException {
    private final transient Causes causes;

    public ChoiceRejectedException(Causes causes) {
        super("the workload cannot be created in every cluster named");
        this.causes = causes;
    }

    public Causes causes() {
        return causes;
    }
}
