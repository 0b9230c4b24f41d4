package dev.muster.adapter.kube;

import java.time.DateTimeException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;

/**
 * RFC 3339 timestamps ({@code metav1.Time}) to epoch seconds. The form every API server writes,
 * {@code 2026-04-22T10:15:30Z}, takes a hand-written path (this runs once per object of a 50,000-pod snapshot);
 * other offsets and fractions go through {@link OffsetDateTime}.
 */
public final class Timestamps {
    private Timestamps() {
    }

    /** Epoch seconds, or {@link Long#MAX_VALUE} when absent. @throws DateTimeException when not RFC 3339 */
    public static long epochSecondsOrMax(String s) {
        if (s == null || s.isEmpty()) {
            return Long.MAX_VALUE;
        }
        return epochSeconds(s);
    }

    public static long epochSeconds(String s) {
        if (s.length() == 20 && s.charAt(4) == '-' && s.charAt(7) == '-' && (s.charAt(10) == 'T' || s.charAt(10) == 't')
                && s.charAt(13) == ':' && s.charAt(16) == ':' && (s.charAt(19) == 'Z' || s.charAt(19) == 'z')) {
            int year = digits(s, 0, 4);
            int month = digits(s, 5, 2);
            int day = digits(s, 8, 2);
            int hour = digits(s, 11, 2);
            int min = digits(s, 14, 2);
            int sec = digits(s, 17, 2);
            if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= lengthOfMonth(year, month)
                    && hour >= 0 && hour <= 23 && min >= 0 && min <= 59 && sec >= 0 && sec <= 59) {
                return daysFromCivil(year, month, day) * 86_400L + hour * 3_600L + min * 60L + sec;
            }
            throw new DateTimeException("not an RFC 3339 time: " + s);
        }
        try {
            return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toEpochSecond();
        } catch (RuntimeException e) {
            throw new DateTimeException("not an RFC 3339 time: " + s);
        }
    }

    public static boolean isValid(String s) {
        try {
            epochSeconds(s);
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }

    private static int digits(String s, int from, int len) {
        int v = 0;
        for (int i = from; i < from + len; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static int lengthOfMonth(int y, int m) {
        return switch (m) {
            case 2 -> (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
    private static long daysFromCivil(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }
}
