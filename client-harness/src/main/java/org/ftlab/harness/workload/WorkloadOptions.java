package org.ftlab.harness.workload;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The options a workload adds to {@code ftlab grid}: a picocli mixin, an object whose fields carry {@code @Option}.
 * The command adds every registered workload's ({@link WorkloadOptionSet}), lists them with its own, and asks each
 * what it makes of the command line: an option may choose its workload ({@link #applyTo}), and gives the workload the
 * parameters the manifest records ({@link #parameters}), which the workload reads back ({@link Workload#configured}).
 * Errors are one line each, before a lab starts.
 */
public interface WorkloadOptions {
    /** Whether any of them was given (a resumed run takes none: its manifest has them). */
    boolean given();

    /**
     * {@code line} as these options make it, asked of every workload's options in turn: an option that chooses
     * the workload rewrites it (refused in one line where the line says otherwise); unchanged by default.
     */
    default GridLine applyTo(GridLine line) {
        return line;
    }

    /**
     * The parameters they give the workload, as {@code workload_parameters} records them (null: none given),
     * checked against {@code line}, the line every workload's options made; asked whichever workload the line runs.
     */
    ObjectNode parameters(GridLine line);

    /**
     * Refuses, in one line, what was given of them that a run of workload {@code workload}, another, cannot take;
     * silent when nothing was.
     */
    void refuseFor(String workload);
}
