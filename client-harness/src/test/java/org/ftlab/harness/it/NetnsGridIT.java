package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.ManagerFailoverRecord;
import org.ftlab.os.Cgroup;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.FaultKind;
import org.junit.jupiter.api.Test;

/**
 * {@code ftlab grid --topology netns} end to end: the database, every replica, each of three managers (the detector
 * beside them) and the clients on hosts of their own, one fault of every kind injected, recorded with its phases and
 * undone (the last the leader cut off from the other managers, which must stop acting), the exactly-once audit
 * passing, and afterwards no namespace, nftables table, cgroup, stopped process or process of the run left, and
 * nothing in the janitor's script. Needs root (CI runs as root); skipped otherwise with the reason.
 */
class NetnsGridIT {
    private static final FaultKind LINK_DOWN = FaultKind.parse("link-down");
    private static final FaultKind RM_PARTITION = FaultKind.parse("rm-partition");
    @Test
    void aGridOnAVirtualNetworkRunsOneFaultOfEachKindPassesTheAuditAndLeavesNothingBehind() throws Exception {
        assumeTrue(VirtualNetwork.unusable().isEmpty(), () -> VirtualNetwork.unusable().orElse(""));
        assumeTrue(Cgroup.unusable("freezer").isEmpty() && Cgroup.unusable("cpu").isEmpty(),
                "needs the cgroup v1 freezer and cpu controllers");
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "netns-grid-");
        Path schedule = Path.of(getClass().getResource("/all-kinds-short.faults").toURI());
        StringWriter out = new StringWriter();
        int code = FtlabCommand.execute(new String[] {"grid", "--topology", "netns", "--clients", "2", "--think", "10",
            "--reply", "orig", "--posts", "2200", "--views", "0", "--warmup", "0", "--lab-warmup", "0",
            "--managers", "3", "--faults-file", schedule.toString(), "--out", runDir.toString()},
                new PrintWriter(out, true), new PrintWriter(out, true));
        System.out.println(out);
        assertEquals(0, code, "the command's own output went to the console: see the test's output");

        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("complete", manifest.path("status").asText());
        assertTrue(manifest.path("audit").path("passed").asBoolean(), "the exactly-once audit passed");
        assertTrue(manifest.path("topology").get(0).asText().startsWith("netns 10.213.0.0/24"), manifest.toString());
        JsonNode status = new ObjectMapper().readTree(runDir.resolve("network.json").toFile());
        String tag = status.path("tag").asText();

        List<FaultRecord> faults = FaultsCsv.readAll(runDir);
        assertEquals(List.of("crash", "slow", "db-hang", "flaky", "hang", "tcp-reset", "bandwidth", "db-slow",
                "one-way", "partition", "freeze", "link-down", "rm-partition"), faults.stream().filter(f -> f.kind() != null)
                .map(f -> f.kind().wireName()).toList(),
                "every scheduled fault was injected, in order");
        for (FaultRecord f : faults) {
            if (f.kind() != null) {
                assertTrue(f.repairedUs() >= f.injectedUs(), f + " was repaired");
                assertTrue(Set.of("replaced", "undone", "fenced").contains(f.repair()), f.toString());
            }
        }
        FaultRecord crash = faults.get(0);
        assertEquals(1, crash.failures(), "the crash failed its replica");
        assertTrue(crash.detectedUs() >= crash.injectedUs() && crash.promotedUs() >= crash.detectedUs());
        everyManagersDetectorSawTheCrash(runDir, crash);
        assertTrue(Files.readString(runDir.resolve(FaultSchedule.FILE)).contains("link-down"),
                "the schedule run is kept in the run directory");
        FaultRecord linkDown = faults.stream().filter(f -> f.kind() == LINK_DOWN).findFirst().orElseThrow();
        assertEquals(1, linkDown.failures(), "a backup whose link is down for 2 s is suspected and replaced");

        theLeaderCutOffFromTheOtherManagersStoppedActingWhileItWasCutOff(runDir,
                faults.stream().filter(f -> f.kind() == RM_PARTITION).findFirst().orElseThrow());

        assertFalse(ProcessTools.run(List.of("ip", "netns", "list"), null).contains("ftlab-" + tag),
                "no namespace of the run is left");
        assertNothingLeft(runDir);
    }

    /**
     * One Fault Detector per manager: the first coordinates the heartbeat group and reported the crash; the two others
     * stood by in the same group, saw the crashed replica leave it, and reported nothing (JGroups passes a crash's
     * suspicion up only in the member that coordinates once the suspects are out: a standby reports when the first
     * detector is gone too, as FaultDetectorTest shows).
     */
    private static void everyManagersDetectorSawTheCrash(Path runDir, FaultRecord crash) throws IOException {
        Path fd = runDir.resolve("fd");
        assertTrue(Files.readAllLines(fd.resolve("detector.log")).stream().anyMatch(l -> l.contains(
                " failure replica=" + crash.replica() + " ") && l.contains(" kind=crash ")),
                "the coordinating detector reported the crash of " + crash.replica());
        for (String standby : List.of("detector-fd2.log", "detector-fd3.log")) {
            List<String> lines = Files.readAllLines(fd.resolve(standby));
            assertTrue(lines.stream().anyMatch(l -> l.contains(" view [fd|") && l.contains("[fd, fd2, fd3, ")),
                    standby + ": a view of the group with the three detectors first");
            assertTrue(lines.stream().anyMatch(l -> l.contains(" left replica=" + crash.replica() + " ")),
                    standby + ": the crashed " + crash.replica() + " left the group it watched");
        }
    }

    /**
     * The minority side of a partition stops acting: the leader cut off from the other two managers stepped down
     * while it was cut off (its log says when), and another member took the lab over and acted.
     */
    private static void theLeaderCutOffFromTheOtherManagersStoppedActingWhileItWasCutOff(Path runDir,
            FaultRecord partition) throws Exception {
        ManagerFailoverRecord record = ManagerFailoverRecord.readFrom(runDir);
        ManagerFailoverRecord.Failover failover = record.failovers().stream()
                .filter(f -> partition.id().equals(f.faultId())).findFirst().orElseThrow(() ->
                        new AssertionError("the partition's fail-over: " + record));
        String cutOff = failover.from();
        long healedUs = partition.injectedUs() + 2_000_000;
        long steppedDownUs = Files.readAllLines(runDir.resolve("rm/" + cutOff + "/manager.log")).stream()
                .filter(l -> l.contains(cutOff + " stepped down")).mapToLong(l ->
                        Instant.parse(l.substring(0, l.indexOf(' '))).toEpochMilli() * 1000).filter(
                        t -> t >= partition.injectedUs()).min().orElseThrow(() -> new AssertionError(
                        cutOff + " never stepped down after the partition"));
        assertTrue(steppedDownUs < healedUs, cutOff + " stepped down while cut off, "
                + (steppedDownUs - partition.injectedUs()) / 1000 + " ms after the partition");
        assertTrue(record.failovers().stream().anyMatch(f -> f.term() > failover.fromTerm()
                && !f.to().equals(cutOff) && f.actingEpochUs() > partition.injectedUs()),
                "another manager took the lab over and acted: " + record);
    }

    /** No ftlab cgroup, no process of the run (stopped or not), and nothing left for the janitors to undo. */
    static void assertNothingLeft(Path runDir) throws Exception {
        for (String controller : List.of("freezer", "cpu")) {
            try (Stream<Path> groups = Files.list(Cgroup.mountOf(controller).orElseThrow())) {
                List<String> left = groups.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("ftlab-"))
                        .toList();
                assertTrue(left.isEmpty(), "cgroups left in " + controller + ": " + left);
            }
        }
        for (String script : List.of("rm/undo.sh", "network-undo.sh")) {
            if (script.equals("network-undo.sh") && !Files.exists(runDir.resolve(script))) {
                continue; // not a virtual network's run
            }
            if (script.equals("rm/undo.sh") && !Files.exists(runDir.resolve(script))) {
                if (Files.isDirectory(runDir.resolve("rm/m1"))) { // several managers: a janitor each that led
                    try (Stream<Path> members = Files.list(runDir.resolve("rm"))) {
                        for (Path member : members.filter(m -> Files.exists(m.resolve("undo.sh"))).toList()) {
                            String undo = Files.readString(member.resolve("undo.sh"));
                            assertFalse(undo.lines().anyMatch(l -> !l.isBlank() && !l.startsWith("#")),
                                    runDir.relativize(member) + "/undo.sh still holds: " + undo);
                        }
                    }
                    continue;
                }
                String topology = Files.readString(runDir.resolve("manifest.json"));
                assertTrue(topology.contains("the running lab in "), runDir + " has no rm/undo.sh, so it must have "
                        + "run on a running lab (whose own is checked when it stops): " + topology);
                continue;
            }
            String undo = Files.readString(runDir.resolve(script));
            assertFalse(undo.lines().anyMatch(l -> !l.isBlank() && !l.startsWith("#")), script + " still holds: "
                    + undo);
        }
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            List<String> left = all.filter(p -> p.info().commandLine().map(c -> c.contains(runDir.toString()))
                    .orElse(false)).map(p -> p.pid() + " " + p.info().command().orElse("?")).toList();
            assertTrue(left.isEmpty(), "processes of the run left: " + left);
        }
    }
}
