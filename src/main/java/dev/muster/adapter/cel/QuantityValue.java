package dev.muster.adapter.cel;

import dev.muster.core.model.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The CEL value of a Kubernetes quantity ({@code kubernetes.Quantity}): an exact decimal. Parsing follows the API's
 * grammar ({@link Quantity#GRAMMAR}); like {@code resource.ParseQuantity}, digits below the nano unit are rounded
 * away from zero. Equality is by value ({@code quantity('1k') == quantity('1000')}).
 */
final class QuantityValue implements Comparable<QuantityValue> {
    /** Decimal exponents beyond this are refused, so one value never needs more than a few hundred digits. */
    private static final int MAX_EXPONENT = 1_000;

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
        int i = 0;
        boolean negative = false;
        if (s.charAt(0) == '+' || s.charAt(0) == '-') {
            negative = s.charAt(0) == '-';
            i = 1;
        }
        int start = i;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            i++;
        }
        String mantissa = s.substring(start, i);
        if (mantissa.startsWith(".")) {
            mantissa = "0" + mantissa;
        }
        if (mantissa.endsWith(".")) {
            mantissa = mantissa + "0";
        }
        BigDecimal m = new BigDecimal(mantissa);
        String suffix = s.substring(i);
        BigDecimal v = switch (suffix) {
            case "" -> m;
            case "n" -> m.scaleByPowerOfTen(-9);
            case "u" -> m.scaleByPowerOfTen(-6);
            case "m" -> m.scaleByPowerOfTen(-3);
            case "k" -> m.scaleByPowerOfTen(3);
            case "M" -> m.scaleByPowerOfTen(6);
            case "G" -> m.scaleByPowerOfTen(9);
            case "T" -> m.scaleByPowerOfTen(12);
            case "P" -> m.scaleByPowerOfTen(15);
            case "E" -> m.scaleByPowerOfTen(18);
            case "Ki" -> m.multiply(BigDecimal.valueOf(1L << 10));
            case "Mi" -> m.multiply(BigDecimal.valueOf(1L << 20));
            case "Gi" -> m.multiply(BigDecimal.valueOf(1L << 30));
            case "Ti" -> m.multiply(BigDecimal.valueOf(1L << 40));
            case "Pi" -> m.multiply(BigDecimal.valueOf(1L << 50));
            case "Ei" -> m.multiply(BigDecimal.valueOf(1L << 60));
            default -> m.scaleByPowerOfTen(exponent(suffix));
        };
        if (v.scale() > 9) {
            v = v.setScale(9, RoundingMode.UP);
        }
        return new QuantityValue(negative ? v.negate() : v);
    }

    private static int exponent(String suffix) {
        // Quantity.isValid has checked the form: [eE][+-]?digits
        String digits = suffix.substring(1);
        boolean neg = digits.startsWith("-");
        if (digits.startsWith("+") || neg) {
            digits = digits.substring(1);
        }
        digits = digits.replaceFirst("^0+(?=.)", "");
        if (digits.length() > 5 || Integer.parseInt(digits) > MAX_EXPONENT) {
            throw new IllegalArgumentException("quantity exponent out of range: " + suffix);
        }
        int e = Integer.parseInt(digits);
        return neg ? -e : e;
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
