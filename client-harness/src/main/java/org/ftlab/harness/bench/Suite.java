package org.ftlab.harness.bench;

/**
 * One suite of {@code ftlab bench}: what it measures, the options it alone has, what it needs of the lab, and its run,
 * which adds its figures to bench.json and its part to the printed table. {@link Suites} holds them in order.
 */
public interface Suite {
    /** Its name in {@code --suites}. */
    String name();

    /**
     * What it measures, its paragraph of {@code bench --help} after its name; empty: none (its name in
     * {@code --suites} says enough).
     */
    String description();

    /** Whether it runs when {@code --suites} is not given. */
    boolean byDefault();

    /** Its own options, a picocli mixin the command adds to its own; null: none. */
    default Object options() {
        return null;
    }

    /**
     * Checks its options, chosen or not, before anything runs; a bad one is an {@link IllegalArgumentException} whose
     * message names it, in one line.
     */
    default void checkOptions() {
    }

    /** Whether it runs on the bench's lab; a suite that does not runs after those that do, the lab stopped. */
    boolean needsLab();

    /** The spares it needs in the lab, to fail replicas over to: 0 or 1. */
    default int spares() {
        return 0;
    }

    /**
     * Checks, when it is chosen, that the bench as planned can run it, before any lab boots; one
     * {@link IllegalArgumentException} in one line if not.
     */
    default void checkPlan(Plan plan) {
    }

    /** Measures, and adds its figures to the run's report; progress as it goes to the run's writer. */
    void run(SuiteRun run) throws Exception;
}
