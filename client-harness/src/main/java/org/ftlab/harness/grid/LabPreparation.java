package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import org.ftlab.harness.workload.Workload;

/**
 * Readies the lab for a run: at full degree before the run owns its failures (an earlier run's crash may still be
 * under repair), at full strength before a fault run's first block, and prepared by the workload.
 */
final class LabPreparation {
    /** How long a run waits for the lab's full degree before it starts anyway. */
    private static final long FULL_DEGREE_NANOS = 180_000_000_000L;
    private final GridLab lab;
    private final RunControl control;
    private final PrintWriter progress;

    LabPreparation(GridLab lab, RunControl control, PrintWriter progress) {
        this.lab = lab;
        this.control = control;
        this.progress = progress;
    }

    /** Waits, up to 180 s, until the lab's view has its replication degree. */
    void awaitFullDegree() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + FULL_DEGREE_NANOS;
        while (control.going() && System.nanoTime() < deadline) {
            if (lab.status().fullDegree()) {
                return;
            }
            Thread.sleep(100);
        }
    }

    /**
     * Before the clients open: a fault run waits until its faults meet the lab at full degree with its spares booted
     * (a spare used by the run before may still be booting); then the workload prepares the system.
     */
    void prepare(boolean faults, Workload workload) throws Exception {
        if (faults) {
            progress.println("waiting until the lab has its replication degree and its spares ...");
            progress.flush();
            lab.awaitFullStrength(control::going, () -> true);
        }
        workload.begin(lab.runDir());
    }
}
