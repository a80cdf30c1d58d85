package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.ftlab.harness.analysis.FaultRecord;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.fault.Cgroup;
import org.junit.jupiter.api.Test;

/**
 * A grid run with a fault schedule of every kind the local topology makes (crash, slow, freeze, hang, db-hang,
 * db-slow), end to end: each is injected, recorded with its phases and repaired, the exactly-once audit passes, and
 * nothing is left behind (no cgroup, no stopped process, nothing in the janitor's script). Needs root for the cgroup
 * kinds (CI runs as root); skipped otherwise.
 */
class FaultKindsIT {
    @Test
    void everyLocalFaultKindIsInjectedRecordedAndUndoneAndTheAuditPasses() throws Exception {
        assumeTrue(Cgroup.unusable("freezer").isEmpty() && Cgroup.unusable("cpu").isEmpty(),
                "needs root and the cgroup v1 freezer and cpu controllers");
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "fault-kinds-");
        Path schedule = Path.of(getClass().getResource("/local-kinds-short.faults").toURI());
        StringWriter out = new StringWriter();
        int code = FtlabCommand.execute(new String[] {"grid", "--clients", "2", "--think", "10", "--reply", "orig",
            "--posts", "1200", "--views", "0", "--warmup", "0", "--lab-warmup", "0", "--faults-file",
            schedule.toString(), "--out", runDir.toString()}, new PrintWriter(out, true), new PrintWriter(out, true));
        System.out.println(out);
        assertEquals(0, code, out.toString());
        assertTrue(out.toString().contains("each stored exactly once"), out.toString());

        List<FaultRecord> faults = FaultRecord.readAll(runDir);
        assertEquals(List.of(FaultKind.CRASH, FaultKind.SLOW, FaultKind.FREEZE, FaultKind.HANG, FaultKind.DB_HANG,
                FaultKind.DB_SLOW), faults.stream().filter(f -> f.kind() != null).map(FaultRecord::kind).toList(),
                "every scheduled fault was injected, in order: " + out);
        for (FaultRecord f : faults) {
            if (f.kind() == null) {
                continue;
            }
            assertTrue(f.repairedUs() >= f.injectedUs(), f + " was repaired after its injection");
            assertTrue(Set.of("replaced", "undone", "fenced").contains(f.repair()), f.toString());
        }
        FaultRecord crash = faults.get(0);
        assertEquals(1, crash.failures(), "the crash failed its replica");
        assertTrue(crash.detectedUs() >= crash.injectedUs() && crash.promotedUs() >= crash.detectedUs());
        assertTrue(Files.readString(runDir.resolve(FaultSchedule.FILE)).contains("db-slow"),
                "the schedule run is kept in the run directory");

        assertNothingLeft(runDir);
    }

    /** No ftlab cgroup, no stopped process of this run, and nothing left for the janitor to undo. */
    static void assertNothingLeft(Path runDir) throws Exception {
        for (String controller : List.of("freezer", "cpu")) {
            try (Stream<Path> groups = Files.list(Cgroup.mountOf(controller).orElseThrow())) {
                List<String> left = groups.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("ftlab-"))
                        .collect(Collectors.toList());
                assertTrue(left.isEmpty(), "cgroups left in " + controller + ": " + left);
            }
        }
        String undo = Files.readString(runDir.resolve("rm/undo.sh"));
        assertFalse(undo.lines().anyMatch(l -> !l.isBlank() && !l.startsWith("#")), "undo.sh still holds: " + undo);
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            List<String> stopped = all.filter(p -> p.info().commandLine().map(c -> c.contains(runDir.toString()))
                    .orElse(false)).map(p -> p.pid() + " " + p.info().command().orElse("?")).toList();
            assertTrue(stopped.isEmpty(), "processes of the run left: " + stopped);
        }
    }
}
