package dev.muster.adapter.cel;

import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static dev.cel.common.CelFunctionDecl.newFunctionDeclaration;
import static dev.cel.common.CelOverloadDecl.newGlobalOverload;
import static dev.cel.common.CelOverloadDecl.newMemberOverload;

/**
 * Kubernetes' CEL libraries that cel-java lacks, written against the upstream declarations (same function names,
 * overload ids and signatures): {@code quantity}, {@code semver} (version 1, with normalisation), the list helpers
 * ({@code isSorted sum min max indexOf lastIndexOf}) and the regex helpers ({@code find findAll}), plus a
 * work-bounded {@code lists.range}.
 */
final class KubernetesLibraries {
    static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
    static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");

    private static final CelType STRING = SimpleType.STRING;
    private static final CelType BOOL = SimpleType.BOOL;
    private static final CelType INT = SimpleType.INT;
    private static final CelType DOUBLE = SimpleType.DOUBLE;
    private static final TypeParamType A = TypeParamType.create("A");

    /** Element types of the list helpers, as upstream (name, type). */
    private static final Map<String, CelType> SUMMABLE = ordered("int", INT, "uint", SimpleType.UINT, "double", DOUBLE,
            "duration", SimpleType.DURATION);
    private static final Map<String, CelType> COMPARABLE = ordered("int", INT, "uint", SimpleType.UINT, "double", DOUBLE,
            "bool", BOOL, "duration", SimpleType.DURATION, "timestamp", SimpleType.TIMESTAMP, "string", STRING,
            "bytes", SimpleType.BYTES);

    /** Compiled regular expressions by pattern text; cleared when it grows past {@link #MAX_PATTERNS}. */
    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();
    private static final int MAX_PATTERNS = 256;

    private KubernetesLibraries() {
    }

    private static Map<String, CelType> ordered(Object... kv) {
        Map<String, CelType> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], (CelType) kv[i + 1]);
        }
        return m;
    }

    static List<CelFunctionDecl> declarations() {
        List<CelFunctionDecl> d = new ArrayList<>();
        // quantity
        d.add(newFunctionDeclaration("quantity", newGlobalOverload("string_to_quantity", QUANTITY, STRING)));
        d.add(newFunctionDeclaration("isQuantity", newGlobalOverload("is_quantity_string", BOOL, STRING)));
        d.add(newFunctionDeclaration("sign", newGlobalOverload("quantity_sign", INT, QUANTITY)));
        d.add(newFunctionDeclaration("asApproximateFloat", newMemberOverload("quantity_get_float", DOUBLE, QUANTITY)));
        d.add(newFunctionDeclaration("asInteger", newMemberOverload("quantity_get_int", INT, QUANTITY)));
        d.add(newFunctionDeclaration("isInteger", newMemberOverload("quantity_is_integer", BOOL, QUANTITY)));
        d.add(newFunctionDeclaration("add",
                newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
                newMemberOverload("quantity_add_int", QUANTITY, QUANTITY, INT)));
        d.add(newFunctionDeclaration("sub",
                newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
                newMemberOverload("quantity_sub_int", QUANTITY, QUANTITY, INT)));
        // quantity and semver share the comparison names
        d.add(newFunctionDeclaration("isGreaterThan",
                newMemberOverload("quantity_is_greater_than", BOOL, QUANTITY, QUANTITY),
                newMemberOverload("semver_is_greater_than", BOOL, SEMVER, SEMVER)));
        d.add(newFunctionDeclaration("isLessThan",
                newMemberOverload("quantity_is_less_than", BOOL, QUANTITY, QUANTITY),
                newMemberOverload("semver_is_less_than", BOOL, SEMVER, SEMVER)));
        d.add(newFunctionDeclaration("compareTo",
                newMemberOverload("quantity_compare_to", INT, QUANTITY, QUANTITY),
                newMemberOverload("semver_compare_to", INT, SEMVER, SEMVER)));
        // semver
        d.add(newFunctionDeclaration("semver",
                newGlobalOverload("string_to_semver", SEMVER, STRING),
                newGlobalOverload("string_bool_to_semver", SEMVER, STRING, BOOL)));
        d.add(newFunctionDeclaration("isSemver",
                newGlobalOverload("is_semver_string", BOOL, STRING),
                newGlobalOverload("is_semver_string_bool", BOOL, STRING, BOOL)));
        d.add(newFunctionDeclaration("major", newMemberOverload("semver_major", INT, SEMVER)));
        d.add(newFunctionDeclaration("minor", newMemberOverload("semver_minor", INT, SEMVER)));
        d.add(newFunctionDeclaration("patch", newMemberOverload("semver_patch", INT, SEMVER)));
        // lists
        List<dev.cel.common.CelOverloadDecl> isSorted = new ArrayList<>();
        List<dev.cel.common.CelOverloadDecl> min = new ArrayList<>();
        List<dev.cel.common.CelOverloadDecl> max = new ArrayList<>();
        List<dev.cel.common.CelOverloadDecl> sum = new ArrayList<>();
        COMPARABLE.forEach((name, t) -> {
            isSorted.add(newMemberOverload("list_" + name + "_is_sorted_bool", BOOL, ListType.create(t)));
            min.add(newMemberOverload("list_" + name + "_min_" + name, t, ListType.create(t)));
            max.add(newMemberOverload("list_" + name + "_max_" + name, t, ListType.create(t)));
        });
        SUMMABLE.forEach((name, t) -> sum.add(newMemberOverload("list_" + name + "_sum_" + name, t, ListType.create(t))));
        d.add(newFunctionDeclaration("isSorted", isSorted));
        d.add(newFunctionDeclaration("min", min));
        d.add(newFunctionDeclaration("max", max));
        d.add(newFunctionDeclaration("sum", sum));
        d.add(newFunctionDeclaration("indexOf", newMemberOverload("list_a_index_of_int", INT, ListType.create(A), A)));
        d.add(newFunctionDeclaration("lastIndexOf", newMemberOverload("list_a_last_index_of_int", INT, ListType.create(A), A)));
        // regex
        d.add(newFunctionDeclaration("find", newMemberOverload("string_find_string", STRING, STRING, STRING)));
        d.add(newFunctionDeclaration("findAll",
                newMemberOverload("string_find_all_string", ListType.create(STRING), STRING, STRING),
                newMemberOverload("string_find_all_string_int", ListType.create(STRING), STRING, STRING, INT)));
        // lists.range and string replace, work-bounded (cel-java's own are left out of its extensions)
        d.add(newFunctionDeclaration("replace",
                newMemberOverload("string_replace_string_string", STRING, STRING, STRING, STRING),
                newMemberOverload("string_replace_string_string_int", STRING, STRING, STRING, STRING, INT)));
        d.add(newFunctionDeclaration("lists.range", newGlobalOverload("lists_range", ListType.create(INT), INT)));
        return d;
    }

    static List<CelFunctionBinding> bindings() {
        List<CelFunctionBinding> b = new ArrayList<>();
        // quantity
        b.add(CelFunctionBinding.from("string_to_quantity", String.class, KubernetesLibraries::quantity));
        b.add(CelFunctionBinding.from("is_quantity_string", String.class, QuantityValue::isQuantity));
        b.add(CelFunctionBinding.from("quantity_sign", QuantityValue.class, q -> (long) q.sign()));
        b.add(CelFunctionBinding.from("quantity_get_float", QuantityValue.class, QuantityValue::asApproximateFloat));
        b.add(CelFunctionBinding.from("quantity_get_int", QuantityValue.class, KubernetesLibraries::asInteger));
        b.add(CelFunctionBinding.from("quantity_is_integer", QuantityValue.class, QuantityValue::isInteger));
        b.add(CelFunctionBinding.from("quantity_add", QuantityValue.class, QuantityValue.class, QuantityValue::add));
        b.add(CelFunctionBinding.from("quantity_add_int", QuantityValue.class, Long.class,
                (q, i) -> q.add(QuantityValue.of(java.math.BigDecimal.valueOf(i)))));
        b.add(CelFunctionBinding.from("quantity_sub", QuantityValue.class, QuantityValue.class, QuantityValue::sub));
        b.add(CelFunctionBinding.from("quantity_sub_int", QuantityValue.class, Long.class,
                (q, i) -> q.sub(QuantityValue.of(java.math.BigDecimal.valueOf(i)))));
        b.add(CelFunctionBinding.from("quantity_is_greater_than", QuantityValue.class, QuantityValue.class, (x, y) -> x.compareTo(y) > 0));
        b.add(CelFunctionBinding.from("quantity_is_less_than", QuantityValue.class, QuantityValue.class, (x, y) -> x.compareTo(y) < 0));
        b.add(CelFunctionBinding.from("quantity_compare_to", QuantityValue.class, QuantityValue.class, (x, y) -> (long) Integer.signum(x.compareTo(y))));
        // semver
        b.add(CelFunctionBinding.from("string_to_semver", String.class, s -> semver(s, false)));
        b.add(CelFunctionBinding.from("string_bool_to_semver", String.class, Boolean.class, KubernetesLibraries::semver));
        b.add(CelFunctionBinding.from("is_semver_string", String.class, s -> isSemver(s, false)));
        b.add(CelFunctionBinding.from("is_semver_string_bool", String.class, Boolean.class, KubernetesLibraries::isSemver));
        b.add(CelFunctionBinding.from("semver_major", SemverValue.class, SemverValue::major));
        b.add(CelFunctionBinding.from("semver_minor", SemverValue.class, SemverValue::minor));
        b.add(CelFunctionBinding.from("semver_patch", SemverValue.class, SemverValue::patch));
        b.add(CelFunctionBinding.from("semver_is_greater_than", SemverValue.class, SemverValue.class, (x, y) -> x.compareTo(y) > 0));
        b.add(CelFunctionBinding.from("semver_is_less_than", SemverValue.class, SemverValue.class, (x, y) -> x.compareTo(y) < 0));
        b.add(CelFunctionBinding.from("semver_compare_to", SemverValue.class, SemverValue.class, (x, y) -> (long) Integer.signum(x.compareTo(y))));
        // lists
        for (String name : COMPARABLE.keySet()) {
            b.add(CelFunctionBinding.from("list_" + name + "_is_sorted_bool", List.class, KubernetesLibraries::isSorted));
            b.add(CelFunctionBinding.from("list_" + name + "_min_" + name, List.class, l -> extreme(l, "min", -1)));
            b.add(CelFunctionBinding.from("list_" + name + "_max_" + name, List.class, l -> extreme(l, "max", 1)));
        }
        for (String name : SUMMABLE.keySet()) {
            b.add(CelFunctionBinding.from("list_" + name + "_sum_" + name, List.class, l -> sum(l, name)));
        }
        b.add(CelFunctionBinding.from("list_a_index_of_int", List.class, Object.class, (l, x) -> (long) indexOf(l, x)));
        b.add(CelFunctionBinding.from("list_a_last_index_of_int", List.class, Object.class, (l, x) -> (long) lastIndexOf(l, x)));
        // regex
        b.add(CelFunctionBinding.from("string_find_string", String.class, String.class, KubernetesLibraries::find));
        b.add(CelFunctionBinding.from("string_find_all_string", String.class, String.class, (s, re) -> findAll(s, re, -1)));
        b.add(CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
                args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
        b.add(CelFunctionBinding.from("lists_range", Long.class, KubernetesLibraries::range));
        b.add(CelFunctionBinding.from("string_replace_string_string", List.of(String.class, String.class, String.class),
                args -> replace((String) args[0], (String) args[1], (String) args[2], -1)));
        b.add(CelFunctionBinding.from("string_replace_string_string_int", List.of(String.class, String.class, String.class, Long.class),
                args -> replace((String) args[0], (String) args[1], (String) args[2], (Long) args[3])));
        return b;
    }

    private static QuantityValue quantity(String s) throws CelEvaluationException {
        try {
            return QuantityValue.parse(s);
        } catch (IllegalArgumentException e) {
            throw new CelEvaluationException(e.getMessage());
        }
    }

    private static long asInteger(QuantityValue q) throws CelEvaluationException {
        if (!q.isInteger()) {
            throw new CelEvaluationException("cannot convert value to integer");
        }
        return q.asInteger();
    }

    private static SemverValue semver(String s, boolean normalize) throws CelEvaluationException {
        try {
            return normalize ? SemverValue.parseNormalized(s) : SemverValue.parse(s);
        } catch (IllegalArgumentException e) {
            throw new CelEvaluationException(e.getMessage());
        }
    }

    private static boolean isSemver(String s, boolean normalize) {
        try {
            if (normalize) {
                SemverValue.parseNormalized(s);
            } else {
                SemverValue.parse(s);
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean isSorted(List<?> l) throws CelEvaluationException {
        EvaluationBudget.chargeCurrent(l.size());
        for (int i = 1; i < l.size(); i++) {
            if (compare(l.get(i - 1), l.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    private static Object extreme(List<?> l, String op, int prefer) throws CelEvaluationException {
        EvaluationBudget.chargeCurrent(l.size());
        if (l.isEmpty()) {
            throw new CelEvaluationException(op + " called on empty list");
        }
        Object best = l.get(0);
        for (int i = 1; i < l.size(); i++) {
            if (Integer.signum(compare(l.get(i), best)) == prefer) {
                best = l.get(i);
            }
        }
        return best;
    }

    private static Object sum(List<?> l, String type) throws CelEvaluationException {
        EvaluationBudget.chargeCurrent(l.size());
        switch (type) {
            case "int" -> {
                long acc = 0;
                for (Object o : l) {
                    try {
                        acc = Math.addExact(acc, (Long) o);
                    } catch (ArithmeticException e) {
                        throw new CelEvaluationException("integer overflow");
                    }
                }
                return acc;
            }
            case "uint" -> {
                UnsignedLong acc = UnsignedLong.ZERO;
                for (Object o : l) {
                    UnsignedLong next = acc.plus(o instanceof UnsignedLong u ? u : UnsignedLong.fromLongBits((Long) o));
                    if (next.compareTo(acc) < 0) {
                        throw new CelEvaluationException("unsigned integer overflow");
                    }
                    acc = next;
                }
                return acc;
            }
            case "double" -> {
                double acc = 0;
                for (Object o : l) {
                    acc += (Double) o;
                }
                return acc;
            }
            default -> {
                java.time.Duration acc = java.time.Duration.ZERO;
                boolean proto = false;
                for (Object o : l) {
                    if (o instanceof com.google.protobuf.Duration d) {
                        proto = true;
                        acc = acc.plusSeconds(d.getSeconds()).plusNanos(d.getNanos());
                    } else {
                        acc = acc.plus((java.time.Duration) o);
                    }
                }
                return proto ? com.google.protobuf.Duration.newBuilder().setSeconds(acc.getSeconds()).setNanos(acc.getNano()).build() : acc;
            }
        }
    }

    private static int indexOf(List<?> l, Object x) {
        EvaluationBudget.chargeCurrent(l.size());
        for (int i = 0; i < l.size(); i++) {
            if (same(l.get(i), x)) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(List<?> l, Object x) {
        EvaluationBudget.chargeCurrent(l.size());
        for (int i = l.size() - 1; i >= 0; i--) {
            if (same(l.get(i), x)) {
                return i;
            }
        }
        return -1;
    }

    /** CEL equality for the element types a list helper sees (numbers compare across types, as in CEL). */
    private static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y && a.getClass() != b.getClass()) {
            return numericCompare(x, y) == 0;
        }
        return a.equals(b);
    }

    private static int numericCompare(Number x, Number y) {
        return new java.math.BigDecimal(x instanceof UnsignedLong u ? u.toString() : x instanceof Double d ? Double.toString(d) : x.toString())
                .compareTo(new java.math.BigDecimal(y instanceof UnsignedLong u ? u.toString() : y instanceof Double d ? Double.toString(d) : y.toString()));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) throws CelEvaluationException {
        if (a instanceof com.google.protobuf.Duration x && b instanceof com.google.protobuf.Duration y) {
            int c = Long.compare(x.getSeconds(), y.getSeconds());
            return c != 0 ? c : Integer.compare(x.getNanos(), y.getNanos());
        }
        if (a instanceof com.google.protobuf.Timestamp x && b instanceof com.google.protobuf.Timestamp y) {
            int c = Long.compare(x.getSeconds(), y.getSeconds());
            return c != 0 ? c : Integer.compare(x.getNanos(), y.getNanos());
        }
        if (a instanceof ByteString x && b instanceof ByteString y) {
            return ByteString.unsignedLexicographicalComparator().compare(x, y);
        }
        if (a instanceof CelByteString x && b instanceof CelByteString y) {
            return ByteString.unsignedLexicographicalComparator().compare(ByteString.copyFrom(x.toByteArray()), ByteString.copyFrom(y.toByteArray()));
        }
        if (a instanceof Double x && b instanceof Double y) {
            return Double.compare(x, y);
        }
        if (a instanceof Comparable x && a.getClass() == b.getClass()) {
            return x.compareTo(b);
        }
        throw new CelEvaluationException("no such overload");
    }

    private static Pattern pattern(String re) throws CelEvaluationException {
        Pattern p = PATTERNS.get(re);
        if (p == null) {
            EvaluationBudget.chargeCurrent(re.length());
            try {
                p = Pattern.compile(re);
            } catch (PatternSyntaxException e) {
                throw new CelEvaluationException(e.getMessage());
            }
            if (PATTERNS.size() >= MAX_PATTERNS) {
                PATTERNS.clear();
            }
            PATTERNS.put(re, p);
        }
        return p;
    }

    private static String find(String s, String re) throws CelEvaluationException {
        EvaluationBudget.chargeCurrent(s.length() / 10 + 1);
        Matcher m = pattern(re).matcher(s);
        return m.find() ? m.group() : "";
    }

    private static List<String> findAll(String s, String re, long limit) throws CelEvaluationException {
        EvaluationBudget.chargeCurrent(s.length() / 10 + 1);
        List<String> out = new ArrayList<>();
        if (limit == 0) {
            return out;
        }
        Matcher m = pattern(re).matcher(s);
        while ((limit < 0 || out.size() < limit) && m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static List<Long> range(Long n) {
        EvaluationBudget.chargeCurrent(n);
        List<Long> out = new ArrayList<>((int) Math.max(0, Math.min(n, 1 << 20)));
        for (long i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }

    /** {@code s.replace(old, new[, n])}: at most n replacements (all when n < 0); charges for the result first. */
    private static String replace(String s, String old, String rep, long limit) {
        if (limit == 0) {
            return s;
        }
        long count = 0;
        if (old.isEmpty()) {
            count = s.codePointCount(0, s.length()) + 1L;
        } else {
            for (int i = s.indexOf(old); i >= 0; i = s.indexOf(old, i + old.length())) {
                count++;
            }
        }
        if (limit > 0) {
            count = Math.min(count, limit);
        }
        long resultLength = s.length() + count * (rep.length() - (long) old.length());
        EvaluationBudget.chargeCurrent(resultLength / 10 + 1);
        StringBuilder out = new StringBuilder((int) Math.min(Math.max(resultLength, 0), Integer.MAX_VALUE - 8));
        int from = 0;
        long done = 0;
        if (old.isEmpty()) {
            int i = 0;
            while (done < count) {
                out.append(rep);
                done++;
                if (i < s.length()) {
                    int next = s.offsetByCodePoints(i, 1);
                    out.append(s, i, next);
                    i = next;
                }
            }
            from = i;
        } else {
            for (int i = s.indexOf(old); i >= 0 && done < count; i = s.indexOf(old, from)) {
                out.append(s, from, i).append(rep);
                from = i + old.length();
                done++;
            }
        }
        return out.append(s, from, s.length()).toString();
    }
}
