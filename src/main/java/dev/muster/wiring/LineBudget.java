package dev.muster.wiring;

import dev.muster.core.decision.Outcome;

import java.util.function.LongSupplier;

/**
 * How many decision lines the log writes: at most {@code perSecond} in any one-second window, the decisions past that
 * counted by outcome instead and told in one line, written before the next line that is. A service saturated by small
 * requests (thousands a second) then spends its CPU on decisions, not on formatting and writing a line for each; the
 * metrics count every decision whatever the log writes.
 *
 * <p>Thread-safe: the event loops and the workers decide at once.
 */
final class LineBudget {
    private static final long SECOND = 1_000_000_000L;
    private static final Outcome[] OUTCOMES = Outcome.values();

    /** What to do with a line: write it or not, and a line that tells the decisions held back before it, or null. */
    record Admission(boolean write, String held) {
        static final Admission WRITE = new Admission(true, null);
        static final Admission HOLD = new Admission(false, null);
    }

    private final int perSecond;
    private final LongSupplier nanoClock;
    private long windowStart;
    private boolean started;
    private int written;
    private final long[] held = new long[OUTCOMES.length];
    private long heldTotal;

    /**
     * @param perSecond lines a second at most (at least 1)
     * @param nanoClock {@link System#nanoTime()}, or a test's clock
     */
    LineBudget(int perSecond, LongSupplier nanoClock) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("perSecond must be at least 1: " + perSecond);
        }
        this.perSecond = perSecond;
        this.nanoClock = nanoClock;
    }

    /**
     * Asks to write a line that stands for {@code decisions} decisions of this outcome (a run's scheduled plain pods
     * are one line for all of them).
     */
    synchronized Admission admit(Outcome outcome, long decisions) {
        long now = nanoClock.getAsLong();
        String told = null;
        if (!started || now - windowStart >= SECOND) {
            told = takeHeld();
            started = true;
            windowStart = now;
            written = 0;
        }
        if (written < perSecond) {
            written++;
            return told == null ? Admission.WRITE : new Admission(true, told);
        }
        held[outcome.ordinal()] += decisions;
        heldTotal += decisions;
        return Admission.HOLD;
    }

    /** The line telling the decisions held back so far, or null when none was; they are then told. */
    synchronized String takeHeld() {
        if (heldTotal == 0) {
            return null;
        }
        StringBuilder b = new StringBuilder("Decisions: ").append(heldTotal).append(" more not logged one by one (");
        boolean first = true;
        for (int i = 0; i < held.length; i++) {
            if (held[i] > 0) {
                b.append(first ? "" : ", ").append(held[i]).append(' ').append(OUTCOMES[i]);
                first = false;
            }
            held[i] = 0;
        }
        heldTotal = 0;
        return b.append("): over ").append(perSecond).append(perSecond == 1 ? " line" : " lines")
                .append(" a second (muster.log.decisions-per-second)").toString();
    }
}
