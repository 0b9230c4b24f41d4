package dev.muster.adapter.cel;

import com.google.protobuf.ByteString;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationListener;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The work allowance of one evaluation, in units modelled on CEL's runtime cost: every evaluated node costs 1; a
 * call also costs the size of its arguments and of its result (one unit per list element or map entry, one per ten
 * characters or bytes), the {@code sets.*} functions the product of their arguments' sizes; functions of this
 * package that could build a large value charge before they build it ({@link #charge}). It is the evaluation's
 * {@link CelEvaluationListener}, called after each node with the node's value; one instance serves exactly one
 * evaluation on one thread.
 */
final class EvaluationBudget implements CelEvaluationListener {
    /** Thrown when the allowance is spent; the evaluator turns it into a selector error. */
    static final class Exceeded extends RuntimeException {
        Exceeded() {
            super("operation cancelled: actual cost limit exceeded", null, false, false);
        }
    }

    private static final ThreadLocal<EvaluationBudget> CURRENT = new ThreadLocal<>();

    private long remaining;
    /** Sizes of values above one unit, by node id, for the node's parent call. */
    private Map<Long, Long> sizes;

    EvaluationBudget(long limit) {
        this.remaining = limit;
    }

    /** Makes this budget the one {@link #chargeCurrent} charges on this thread; returns the previous one. */
    EvaluationBudget enter() {
        EvaluationBudget previous = CURRENT.get();
        CURRENT.set(this);
        return previous;
    }

    static void leave(EvaluationBudget previous) {
        if (previous == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }

    /** Charges the evaluation running on this thread, if any (functions called outside an evaluation are free). */
    static void chargeCurrent(long units) {
        EvaluationBudget b = CURRENT.get();
        if (b != null) {
            b.charge(units);
        }
    }

    void charge(long units) {
        remaining -= Math.max(0, units);
        if (remaining < 0) {
            throw new Exceeded();
        }
    }

    @Override
    public void callback(CelExpr expr, Object value) {
        long cost = 1;
        long size = size(value);
        switch (expr.getKind()) {
            case CALL -> {
                CelExpr.CelCall call = expr.call();
                String fn = call.function();
                if (fn.startsWith("sets.") && call.args().size() == 2) {
                    cost += saturatedProduct(sizeOf(call.args().get(0)), sizeOf(call.args().get(1)));
                } else {
                    if (call.target().isPresent()) {
                        cost += sizeOf(call.target().get());
                    }
                    for (CelExpr arg : call.args()) {
                        cost += sizeOf(arg);
                    }
                }
                cost += size;
            }
            case LIST, MAP, STRUCT -> cost += size;
            default -> {
            }
        }
        if (size > 1) {
            if (sizes == null) {
                sizes = new HashMap<>();
            }
            sizes.put(expr.id(), size);
        }
        charge(cost < 0 ? Long.MAX_VALUE : cost);
    }

    private long sizeOf(CelExpr e) {
        if (sizes == null) {
            return 0;
        }
        Long s = sizes.get(e.id());
        return s == null ? 0 : s;
    }

    private static long saturatedProduct(long a, long b) {
        return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
    }

    /** Cost units of a value's size. */
    static long size(Object value) {
        if (value instanceof String s) {
            return (s.length() + 9) / 10;
        }
        if (value instanceof Collection<?> c) {
            return c.size();
        }
        if (value instanceof Map<?, ?> m) {
            return m.size();
        }
        if (value instanceof CelByteString b) {
            return (b.size() + 9) / 10;
        }
        if (value instanceof ByteString b) {
            return (b.size() + 9) / 10;
        }
        return 0;
    }
}
