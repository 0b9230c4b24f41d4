package dev.muster.adapter.cel;

import dev.muster.core.model.Quantity;
import dev.muster.core.model.QuantityFormatException;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The CEL value of a Kubernetes quantity ({@code kubernetes.Quantity}): an exact decimal. Parsing follows the API's
 * grammar ({@link Quantity#GRAMMAR}); like {@code resource.ParseQuantity}, digits below the nano unit are rounded
 * away from zero. Equality is by value ({@code quantity('1k') == quantity('1000')}).
 */
final class QuantityValue implements Comparable<QuantityValue> {
    /** Decimal exponents beyond this are refused, so one value never needs more than a few hundred digits. */

    private final BigDecimal value;

    private QuantityValue(BigDecimal value) {
        this.value = value;
    }

    static QuantityValue of(BigDecimal value) {
        return new QuantityValue(value);
    }

    /** Whether the text parses as a quantity. */
    static boolean isQuantity(String s) {
        try {
            parse(s);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Parses a quantity exactly.
     *
     * @throws IllegalArgumentException with the API server's message when the text is not a quantity
     */
    static QuantityValue parse(String s) {
        if (s == null || !Quantity.isValid(s)) {
            throw new IllegalArgumentException(Quantity.FORMAT_MESSAGE);
        }
        BigDecimal v;
        try {
            v = Quantity.exact(s);
        } catch (QuantityFormatException e) {
            throw new IllegalArgumentException("quantity exponent out of range: " + s);
        }
        if (v.scale() > 9) {
            v = v.setScale(9, RoundingMode.UP); // a quantity keeps nano precision, rounded away from zero
        }
        return new QuantityValue(v);
    }

    BigDecimal value() {
        return value;
    }

    int sign() {
        return value.signum();
    }

    /** Whether {@link #asInteger()} succeeds: a whole number in the int64 range. */
    boolean isInteger() {
        if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
            return false;
        }
        return value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0 && value.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0;
    }

    long asInteger() {
        if (!isInteger()) {
            throw new ArithmeticException("cannot convert value to integer");
        }
        return value.longValue();
    }

    double asApproximateFloat() {
        return value.doubleValue();
    }

    QuantityValue add(QuantityValue other) {
        return new QuantityValue(value.add(other.value));
    }

    QuantityValue sub(QuantityValue other) {
        return new QuantityValue(value.subtract(other.value));
    }

    @Override
    public int compareTo(QuantityValue o) {
        return value.compareTo(o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QuantityValue q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.signum() == 0 ? 0 : value.stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
        return value.toPlainString();
    }
}
