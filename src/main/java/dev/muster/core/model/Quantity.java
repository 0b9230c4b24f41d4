package dev.muster.core.model;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * Exact parser for Kubernetes {@code resource.Quantity} strings: {@code <sign><digits>[.<digits>]<suffix>} where the
 * suffix is binary ({@code Ki Mi Gi Ti Pi Ei}), decimal SI ({@code n u m "" k M G T P E}) or a decimal exponent
 * ({@code e3}, {@code E-2}). No floating point anywhere: the common forms ({@code 500m}, {@code 4Gi}, {@code 2})
 * take a pure {@code long} path, everything else goes through {@link BigDecimal}. Results round up (towards
 * positive infinity) like {@code Quantity.MilliValue()}/{@code Value()}, and saturate at the {@code long} range.
 */
public final class Quantity {
    /** The grammar, for messages (same language as the API server's). */
    public static final String GRAMMAR = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";
    public static final String FORMAT_MESSAGE = "quantities must match the regular expression '" + GRAMMAR + "'";

    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private Quantity() {
    }

    /** Milli-units rounded up ({@code MilliValue}): what cpu is compared in. */
    public static long milliValue(String s) {
        return scaledCeil(s, 3);
    }

    /** Whole units rounded up ({@code Value}): what every resource but cpu is compared in. */
    public static long value(String s) {
        return scaledCeil(s, 0);
    }

    /**
     * The exact value of a quantity, no rounding (e.g. {@code 1.5Gi} = 1610612736, {@code 500m} = 0.5). For exact
     * comparisons and sums (device capacities, counters). Suffix exponents beyond ±10^400 are rejected rather than
     * building huge numbers.
     *
     * @throws QuantityFormatException when the text is not a quantity
     */
    public static BigDecimal exact(String s) {
        scaledCeil(s, 0); // validates the grammar
        int n = s.length();
        int i = 0;
        if (s.charAt(0) == '+' || s.charAt(0) == '-') {
            i = 1;
        }
        int start = i;
        while (i < n && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            i++;
        }
        String mantissa = s.substring(start, i);
        if (mantissa.startsWith(".")) {
            mantissa = "0" + mantissa;
        }
        if (mantissa.endsWith(".")) {
            mantissa = mantissa + "0";
        }
        BigDecimal v = new BigDecimal(mantissa);
        String suffix = s.substring(i);
        switch (suffix) {
            case "" -> { }
            case "n" -> v = v.scaleByPowerOfTen(-9);
            case "u" -> v = v.scaleByPowerOfTen(-6);
            case "m" -> v = v.scaleByPowerOfTen(-3);
            case "k" -> v = v.scaleByPowerOfTen(3);
            case "M" -> v = v.scaleByPowerOfTen(6);
            case "G" -> v = v.scaleByPowerOfTen(9);
            case "T" -> v = v.scaleByPowerOfTen(12);
            case "P" -> v = v.scaleByPowerOfTen(15);
            case "E" -> v = v.scaleByPowerOfTen(18);
            case "Ki" -> v = v.multiply(BigDecimal.valueOf(1L << 10));
            case "Mi" -> v = v.multiply(BigDecimal.valueOf(1L << 20));
            case "Gi" -> v = v.multiply(BigDecimal.valueOf(1L << 30));
            case "Ti" -> v = v.multiply(BigDecimal.valueOf(1L << 40));
            case "Pi" -> v = v.multiply(BigDecimal.valueOf(1L << 50));
            case "Ei" -> v = v.multiply(BigDecimal.valueOf(1L << 60));
            default -> {
                int e = parseExponent(s, i);
                if (Math.abs(e) > 400) {
                    throw new QuantityFormatException(s);
                }
                v = v.scaleByPowerOfTen(e);
            }
        }
        if (s.charAt(0) == '-') {
            v = v.negate();
        }
        return v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
    }

    /** Whether the text is a well-formed quantity. */
    public static boolean isValid(String s) {
        try {
            scaledCeil(s, 0);
            return true;
        } catch (QuantityFormatException e) {
            return false;
        }
    }

    /** Whether the quantity is below zero (assumes it is valid). */
    public static boolean isNegative(String s) {
        return !s.isEmpty() && s.charAt(0) == '-' && scaledCeil(s, 9) < 0;
    }

    /**
     * {@code ceil(q × 10^scale)} for a quantity q, saturated to the long range.
     *
     * @throws QuantityFormatException when the text is not a quantity
     */
    public static long scaledCeil(String s, int scale) {
        if (s == null || s.isEmpty()) {
            throw new QuantityFormatException(s);
        }
        int n = s.length();
        int i = 0;
        boolean negative = false;
        char c0 = s.charAt(0);
        if (c0 == '+' || c0 == '-') {
            negative = c0 == '-';
            i = 1;
        }
        int mantStart = i;
        long unscaled = 0;
        int digits = 0;
        int significant = 0;
        int fracDigits = 0;
        boolean dot = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                digits++;
                if (dot) {
                    fracDigits++;
                }
                if (significant > 0 || c != '0') {
                    significant++;
                }
                if (significant <= 18) {
                    unscaled = unscaled * 10 + (c - '0');
                }
            } else if (c == '.' && !dot) {
                dot = true;
            } else {
                break;
            }
        }
        if (digits == 0) {
            throw new QuantityFormatException(s);
        }
        int mantEnd = i;
        int exp10 = 0;
        int exp2 = 0;
        int rest = n - i;
        if (rest == 0) {
            // no suffix
        } else if (rest == 1) {
            switch (s.charAt(i)) {
                case 'n' -> exp10 = -9;
                case 'u' -> exp10 = -6;
                case 'm' -> exp10 = -3;
                case 'k' -> exp10 = 3;
                case 'M' -> exp10 = 6;
                case 'G' -> exp10 = 9;
                case 'T' -> exp10 = 12;
                case 'P' -> exp10 = 15;
                case 'E' -> exp10 = 18;
                default -> throw new QuantityFormatException(s);
            }
        } else if (rest == 2 && s.charAt(i + 1) == 'i') {
            switch (s.charAt(i)) {
                case 'K' -> exp2 = 10;
                case 'M' -> exp2 = 20;
                case 'G' -> exp2 = 30;
                case 'T' -> exp2 = 40;
                case 'P' -> exp2 = 50;
                case 'E' -> exp2 = 60;
                default -> throw new QuantityFormatException(s);
            }
        } else {
            exp10 = parseExponent(s, i);
        }
        boolean zero = significant == 0;
        if (zero) {
            return 0;
        }
        // value = mantissa × 10^exp10 × 2^exp2, mantissa = unscaled / 10^fracDigits (when significant <= 18)
        if (significant <= 18) {
            int e = exp10 - fracDigits + scale;
            long shifted = exp2 == 0 ? unscaled : shiftOrNeg(unscaled, exp2);
            if (shifted >= 0) {
                if (e >= 0 && e <= 18) {
                    long p = POW10[e];
                    long hi = Math.multiplyHigh(shifted, p);
                    long r = shifted * p;
                    if (hi == 0 && r >= 0) {
                        return negative ? -r : r;
                    }
                } else if (e < 0 && e >= -18) {
                    long p = POW10[-e];
                    long q = shifted / p;
                    long rem = shifted % p;
                    if (negative) {
                        return -q; // ceil of a negative value truncates towards zero
                    }
                    return rem == 0 ? q : q + 1;
                }
            }
        }
        return bigPath(s.substring(mantStart, mantEnd), negative, exp10, exp2, scale);
    }

    private static long shiftOrNeg(long v, int bits) {
        if (Long.numberOfLeadingZeros(v) <= bits) {
            return -1; // would overflow: take the BigDecimal path
        }
        return v << bits;
    }

    private static int parseExponent(String s, int i) {
        int n = s.length();
        char e = s.charAt(i);
        if (e != 'e' && e != 'E') {
            throw new QuantityFormatException(s);
        }
        i++;
        boolean neg = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            neg = s.charAt(i) == '-';
            i++;
        }
        if (i >= n) {
            throw new QuantityFormatException(s);
        }
        int v = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new QuantityFormatException(s);
            }
            if (v < 100_000) {
                v = v * 10 + (c - '0');
            }
        }
        return neg ? -v : v;
    }

    private static long bigPath(String mantissa, boolean negative, int exp10, int exp2, int scale) {
        BigDecimal m = new BigDecimal(mantissa.endsWith(".") ? mantissa + "0" : mantissa.startsWith(".") ? "0" + mantissa : mantissa);
        int e = exp10 + scale;
        // magnitude guard: beyond 10^±400 the answer is saturated or the smallest unit; no huge BigDecimals
        int magnitude = m.precision() - m.scale() + e + (int) Math.ceil(exp2 * 0.30103);
        if (magnitude > 40) {
            return negative ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        if (magnitude < -40) {
            return negative ? 0 : 1;
        }
        BigDecimal v = m.scaleByPowerOfTen(e);
        if (exp2 > 0) {
            v = v.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(exp2)));
        }
        if (negative) {
            v = v.negate();
        }
        BigInteger r = v.setScale(0, RoundingMode.CEILING).toBigInteger();
        if (r.bitLength() > 63) {
            return r.signum() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return r.longValue();
    }
}
