package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.harness.failover.PluginFailure;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.workload.Workload;
import org.ftlab.rm.api.FailureRecord;

/**
 * Ends a run once its blocks are over, and records how: a plug-in strategy's breach as the run's error; the
 * database's work ({@code database.json}); the workload's check of every request the clients completed, then what the
 * workload keeps of the run ({@link Workload#ended}), then the verdict ({@code audit}, a failed one stops the run);
 * and the run's faults once the lasting ones have ended.
 */
final class RunEnd {
    private final GridLab lab;
    private final RunDirectory dir;
    private final Workload workload;
    private final RunFaults faults;
    private final RunControl control;
    private final PrintWriter progress;

    RunEnd(GridLab lab, RunDirectory dir, Workload workload, RunFaults faults, RunControl control,
            PrintWriter progress) {
        this.lab = lab;
        this.dir = dir;
        this.workload = workload;
        this.faults = faults;
        this.control = control;
        this.progress = progress;
    }

    /**
     * Ends the run whose clients completed {@code all} (every table of the run: lab warm-up, blocks, the interrupted
     * block's), the database's work measured from {@code database} (null: not measured); returns whether it
     * completed.
     */
    boolean finish(List<ProbeTable> all, DatabaseWork database) throws Exception {
        PluginFailure pluginFailure = control.pluginFailure();
        if (pluginFailure != null) {
            // The plug-in broke its contract: the blocks done are whole and kept; the run is not complete, and no
            // audit can vouch for requests a stuck plug-in may still hold.
            dir.recordError(pluginFailure.getMessage());
            throw pluginFailure;
        }
        if (!all.isEmpty() && database != null && control.going()) {
            database.recordAfter(BlockLoop.rows(all), dir.path());
        }
        if (!all.isEmpty()) {
            audit(all);
        }
        faults.awaitLastingEnded();
        faults.write(lab.status());
        return control.going();
    }

    /** The workload's check and after-run work; the verdict recorded and printed, a failed one thrown. */
    private void audit(List<ProbeTable> all) throws Exception {
        Workload.Verdict audit = workload.checker().check(lab.runDir(), all);
        workload.ended(new Ended());
        dir.recordAudit(audit);
        progress.println(audit.summary());
        if (!audit.passed()) {
            throw new IllegalStateException(audit.summary().lines().findFirst().orElseThrow());
        }
    }

    /** The run as the workload's after-run work sees it; its failures read from the lab when asked. */
    private final class Ended implements Workload.Ended {
        @Override
        public Path labRunDir() {
            return lab.runDir();
        }

        @Override
        public Path runDir() {
            return dir.path();
        }

        @Override
        public List<FailureRecord> failures() throws IOException {
            return faults.failures(lab.status());
        }
    }
}
