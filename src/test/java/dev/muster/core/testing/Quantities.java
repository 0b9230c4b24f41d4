package dev.muster.core.testing;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Parses Kubernetes quantities the way the mapper does: cpu to millicores, everything else to whole units rounded up. */
public final class Quantities {
    private Quantities() {
    }

    public static long parse(String resource, String quantity) {
        BigDecimal v = toDecimal(quantity);
        if ("cpu".equals(resource)) {
            v = v.multiply(BigDecimal.valueOf(1000));
        }
        return v.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    private static BigDecimal toDecimal(String q) {
        String[][] suffixes = {
            {"Ki", "1024"}, {"Mi", "1048576"}, {"Gi", "1073741824"}, {"Ti", "1099511627776"},
            {"k", "1000"}, {"M", "1000000"}, {"G", "1000000000"}, {"T", "1000000000000"}, {"m", "0.001"},
        };
        for (String[] s : suffixes) {
            if (q.endsWith(s[0])) {
                return new BigDecimal(q.substring(0, q.length() - s[0].length())).multiply(new BigDecimal(s[1]));
            }
        }
        return new BigDecimal(q);
    }
}
