package dev.muster.adapter.cel;

import dev.cel.bundle.Cel;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelTypes;
import dev.cel.runtime.CelEvaluationException;
import dev.muster.core.dra.DeviceSelector;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Compiles DRA device selector expressions ({@code cel.expression} of DeviceClasses and device requests) into
 * {@link DeviceSelector}s, in the CEL environment Kubernetes 1.36 gives them.
 *
 * <h2>Environment</h2>
 * The variable {@code device} ({@code kubernetes.DRADevice}) has {@code driver}, {@code attributes[domain].id},
 * {@code capacity[domain].id} (a {@code kubernetes.Quantity}) and {@code allowMultipleAllocations}; names without a
 * domain are filed under the driver's; a domain the device lacks reads as an empty map (so {@code has()} on it is
 * false and reading a field of it is a run-time error); version attributes are {@code kubernetes.Semver} values.
 * Libraries: the CEL standard library and macros with cross-type numeric comparisons and homogeneous aggregate
 * literals; cel-java's strings, sets, lists, bindings ({@code cel.bind}), two-variable comprehensions and optional
 * extensions; Kubernetes' {@code quantity} (quantity, isQuantity, sign, compareTo, isLessThan, isGreaterThan, add,
 * sub, isInteger, asInteger, asApproximateFloat), {@code semver} version 1 (semver(s[, normalize]), isSemver(s[,
 * normalize]), major, minor, patch, compareTo, isLessThan, isGreaterThan), list helpers (isSorted, sum, min, max,
 * indexOf, lastIndexOf) and regex helpers (find, findAll).
 *
 * <h2>Results and errors</h2>
 * {@link #compile} refuses, with a {@link CelCompileException} worded like the API server's, an expression longer
 * than {@value #MAX_EXPRESSION_BYTES} bytes, one that does not parse or type-check, and one whose type is neither
 * bool nor dyn. {@link DeviceSelector#matches} throws {@link dev.muster.core.dra.SelectorException} for a run-time
 * error (a missing attribute, a failed conversion, a non-bool result, the work limit reached).
 *
 * <h2>How one evaluation is bounded</h2>
 * Every evaluation gets a fresh allowance of {@code costLimit} units (default {@value #DEFAULT_COST_LIMIT}, Kubernetes'
 * {@code CELSelectorExpressionMaxCost}), spent through cel-java's evaluation listener, which sees every evaluated
 * node: one unit per node, plus for a call the sizes of its arguments and result (one unit per list element or map
 * entry, one per ten characters), and for the {@code sets.*} functions the product of their arguments' sizes.
 * Functions of this package that could build a large value in one call ({@code lists.range}, {@code replace},
 * {@code find}/{@code findAll}, the list helpers) charge before they work. When the allowance is spent the evaluation
 * stops with "operation cancelled: actual cost limit exceeded". Independently, cel-java stops any evaluation after
 * {@value #COMPREHENSION_MAX_ITERATIONS} comprehension iterations in total.
 *
 * <h2>Caching and threads</h2>
 * Outcomes (selector or compile error) are cached by expression text in a bounded LRU map; an expression is compiled
 * once however many pods use it, also when threads ask for it at the same time ({@link #compilations()} counts real
 * compilations). The environment and programs are immutable; selectors may be evaluated from any number of threads.
 * No classes are generated at run time.
 *
 * <h2>Known differences from Kubernetes</h2>
 * <ul>
 *   <li>Cost is modelled, not cel-go's exact runtime cost: an expression near the limit may pass here and fail
 *       there, or the reverse. No static cost estimate is made at compile time (the API server has already refused
 *       expressions whose estimated cost is over the limit).</li>
 *   <li>{@code 'other.example.com' in device.attributes} is true here for any domain (cel-java looks maps up with
 *       {@code get}, which gives the empty default); in Kubernetes it is false for a domain the device lacks.
 *       Iterating the map ({@code exists}, {@code all}) sees only the real domains, as there.</li>
 *   <li>Error texts of run-time failures are cel-java's ({@code key 'foo' is not present in map}) where cel-go says
 *       {@code no such key: foo}; compile errors carry cel-java's parser and checker texts.</li>
 *   <li>Not provided: Kubernetes' {@code url}, {@code ip}, {@code cidr} and {@code format} libraries,
 *       {@code quantity.mul/div/divInt} (later than 1.36), the {@code strings.format} function and the strings
 *       extension's later additions, the {@code math} extension, {@code includes()} (DRAListTypeAttributes) and
 *       list-typed attributes.</li>
 *   <li>The list helpers check element types at compile time only as far as cel-java's overload resolution does;
 *       {@code sum()} of an empty list whose element type is unknown at compile time yields int 0.</li>
 *   <li>Regular expressions are checked when first used at run time, not when the expression is compiled.</li>
 *   <li>Quantity exponents beyond ±{@code 400} (for example {@code 1e5000}) are refused instead of saturated.</li>
 * </ul>
 */
public final class CelSelectors {
    /** Kubernetes' {@code CELSelectorExpressionMaxLength}. */
    public static final int MAX_EXPRESSION_BYTES = 10 * 1024;
    /** Kubernetes' {@code CELSelectorExpressionMaxCost}. */
    public static final long DEFAULT_COST_LIMIT = 1_000_000;
    public static final int DEFAULT_CACHE_SIZE = 1024;
    /** Comprehension iterations one evaluation may run in total. */
    public static final int COMPREHENSION_MAX_ITERATIONS = 250_000;

    private static final Pattern ERROR_LOCATION = Pattern.compile("(?m)^(ERROR: <input>:\\d+:\\d+: )(?!Syntax error: )");

    private final Cel cel;
    private final long costLimit;
    private final int cacheSize;
    private final AtomicLong compilations = new AtomicLong();
    private final Map<String, Entry> cache;

    /** Default cache size and cost limit. */
    /** The process's compiler, shared by validation and mapping: programs are a pure function of the text. */
    private static final class Shared {
        static final CelSelectors INSTANCE = new CelSelectors();
    }

    /** The compiler every request path uses, so an expression is compiled once per process. */
    public static CelSelectors shared() {
        return Shared.INSTANCE;
    }

    public CelSelectors() {
        this(DEFAULT_CACHE_SIZE, DEFAULT_COST_LIMIT);
    }

    public CelSelectors(int cacheSize) {
        this(cacheSize, DEFAULT_COST_LIMIT);
    }

    /**
     * @param cacheSize how many distinct expressions stay compiled (at least 1)
     * @param costLimit work allowance of one evaluation, in cost units
     */
    public CelSelectors(int cacheSize, long costLimit) {
        if (cacheSize < 1 || costLimit < 1) {
            throw new IllegalArgumentException("cacheSize and costLimit must be positive");
        }
        this.cacheSize = cacheSize;
        this.costLimit = costLimit;
        // the parser's own limit stays above ours so that ours (in bytes, with the API's message) decides
        this.cel = DraCelEnvironment.build(MAX_EXPRESSION_BYTES * 4, COMPREHENSION_MAX_ITERATIONS);
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > CelSelectors.this.cacheSize;
            }
        };
    }

    /**
     * The selector for an expression, compiled on first use and cached.
     *
     * @throws CelCompileException when the expression is refused (the refusal is cached too)
     */
    public DeviceSelector compile(String expression) {
        if (expression == null) {
            throw new CelCompileException(null, "compilation failed: expression is null");
        }
        Entry entry;
        synchronized (cache) {
            entry = cache.get(expression);
            if (entry == null) {
                entry = new Entry();
                cache.put(expression, entry);
            }
        }
        return entry.get(expression);
    }

    /**
     * Whether a device attribute's {@code version} value is a semantic version (semver.org 2.0.0), as the API server
     * requires of a ResourceSlice and as selectors compare them.
     */
    public static boolean isSemanticVersion(String value) {
        try {
            SemverValue.parseShared(value);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** How many times an expression was actually compiled (cache misses), for tests and metrics. */
    public long compilations() {
        return compilations.get();
    }

    /** Expressions currently cached. */
    public int cachedExpressions() {
        synchronized (cache) {
            return cache.size();
        }
    }

    /** One cached outcome, computed once. */
    private final class Entry {
        private DeviceSelector selector;
        private CelCompileException error;

        synchronized DeviceSelector get(String expression) {
            if (selector == null && error == null) {
                try {
                    selector = doCompile(expression);
                } catch (CelCompileException e) {
                    error = e;
                }
            }
            if (error != null) {
                throw new CelCompileException(expression, error.getMessage());
            }
            return selector;
        }
    }

    private DeviceSelector doCompile(String expression) {
        compilations.incrementAndGet();
        int bytes = expression.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_EXPRESSION_BYTES) {
            throw new CelCompileException(expression, "Too long: may not be more than " + MAX_EXPRESSION_BYTES + " bytes");
        }
        CelValidationResult parsed = cel.parse(expression);
        if (parsed.hasError()) {
            String text = ERROR_LOCATION.matcher(parsed.getErrorString()).replaceAll("$1Syntax error: ");
            throw new CelCompileException(expression, "compilation failed: " + text);
        }
        CelAbstractSyntaxTree ast;
        try {
            CelValidationResult checked = cel.check(parsed.getAst());
            if (checked.hasError()) {
                throw new CelCompileException(expression, "compilation failed: " + checked.getErrorString());
            }
            ast = checked.getAst();
        } catch (CelValidationException e) {
            throw new CelCompileException(expression, "compilation failed: " + e.getMessage());
        }
        CelKind kind = ast.getResultType().kind();
        if (kind != CelKind.BOOL && kind != CelKind.DYN) {
            throw new CelCompileException(expression,
                    "must evaluate to bool or the unknown type, not " + CelTypes.format(ast.getResultType()));
        }
        try {
            return new CelDeviceSelector(expression, cel.createProgram(ast), costLimit, DeviceReads.of(ast.getExpr()));
        } catch (CelEvaluationException e) {
            throw new CelCompileException(expression, "program instantiation failed: " + e.getMessage());
        }
    }
}
