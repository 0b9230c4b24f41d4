package dev.muster.core.decision;

/**
 * Engine limits and switches, set once by the composition root from configuration.
 *
 * @param searchBudget node evaluations the bounded search may spend per group after a failed greedy pass
 *                     (0 turns the search off)
 * @param parallelism  threads for filter/score over large node lists (1 = sequential)
 * @param parallelThreshold node count from which filter/score run in parallel chunks
 * @param batching     keep a pod's evaluation for the next pods of the same signature and refresh only what
 *                     changed (the default); false evaluates every pod in full, with the same decisions (the
 *                     property tests compare the two)
 */
public record EngineConfig(long searchBudget, int parallelism, int parallelThreshold, boolean batching) {
    public static final EngineConfig DEFAULT = new EngineConfig(200_000, 1, 1024);

    public EngineConfig(long searchBudget, int parallelism, int parallelThreshold) {
        this(searchBudget, parallelism, parallelThreshold, true);
    }

    public EngineConfig {
        if (searchBudget < 0) {
            throw new IllegalArgumentException("searchBudget must be >= 0, got " + searchBudget);
        }
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1, got " + parallelism);
        }
    }
}
