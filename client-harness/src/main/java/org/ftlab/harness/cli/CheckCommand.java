package org.ftlab.harness.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.ftlab.harness.analysis.LinearizabilityCheck;
import org.ftlab.harness.history.EdnExport;
import org.ftlab.harness.history.HistoryFiles;
import org.ftlab.harness.history.check.HistoryCheck;
import org.ftlab.harness.history.check.Linearizability;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code ftlab check RUN_DIR}: the run's history checked for linearizability, or exported for Jepsen's tools. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Checks a grid run's history (RUN_DIR/history/) for linearizability against its workload's "
                + "model, key by key (Wing & Gong's search with Lowe's memoization, as Knossos and Porcupine), and "
                + "writes RUN_DIR/check.json.",
                "Exit code: 0 valid, 1 invalid (the anomaly is printed) or unreadable (one line), 3 unknown (a "
                        + "budget ran out; never reported valid), 2 bad usage.",
                "With --export edn: writes the history as Jepsen's EDN history (RUN_DIR/history.edn) for Knossos "
                        + "and Elle, and checks nothing (docs/analysis.md)."})
public final class CheckCommand implements Callable<Integer> {
    /** The exit code of a check whose budget ran out. */
    public static final int UNKNOWN = 3;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RUN_DIR", description = "A grid run directory (with history/ and manifest.json).")
    Path runDir;

    @Option(names = "--export", paramLabel = "FORMAT", description = "Write the history for other tools instead of "
            + "checking it: edn (Jepsen's history.edn).")
    String export;

    @Option(names = "--threads", paramLabel = "N", description = "Keys checked at once (default: the CPUs).")
    Integer threads;

    @Option(names = "--memory-mib", paramLabel = "MIB", defaultValue = "1024", description = "The memory the "
            + "searches may remember configurations in, all threads together (default: ${DEFAULT-VALUE}); a key "
            + "that needs more is unknown.")
    long memoryMiB;

    @Option(names = "--time-limit-s", paramLabel = "S", defaultValue = "600", description = "The time the check "
            + "may take (default: ${DEFAULT-VALUE}); keys not decided by then are unknown.")
    long seconds;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (export != null) {
            if (!export.equals("edn")) {
                throw new IllegalArgumentException("--export takes edn, was '" + export + "'");
            }
            Path file = runDir.resolve("history.edn");
            EdnExport.write(HistoryFiles.readRun(runDir), file);
            out.println("history: " + file);
            return 0;
        }
        HistoryCheck.Limits limits = HistoryCheck.Limits.of(threads == null
                ? Runtime.getRuntime().availableProcessors() : threads, memoryMiB, seconds);
        HistoryCheck.Report report = LinearizabilityCheck.run(runDir, limits);
        LinearizabilityCheck.print(out, report);
        out.println("verdict: " + runDir.resolve(LinearizabilityCheck.FILE));
        return report.verdict() == Linearizability.Verdict.VALID ? 0
                : report.verdict() == Linearizability.Verdict.INVALID ? 1 : UNKNOWN;
    }
}
