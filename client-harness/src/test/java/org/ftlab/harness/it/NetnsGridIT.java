package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.harness.analysis.FaultRecord;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.fault.Cgroup;
import org.ftlab.rm.net.VirtualNetwork;
import org.ftlab.rm.replica.ProcessTools;
import org.junit.jupiter.api.Test;

/**
 * {@code ftlab grid --topology netns} end to end: the database, every replica, the manager and the clients on hosts
 * of their own, network faults of every kind injected and undone, the audit passing, and afterwards no namespace,
 * nftables table, cgroup or process of the run left. Needs root (CI runs as root); skipped otherwise with the reason.
 */
class NetnsGridIT {
    @Test
    void aGridOnAVirtualNetworkRunsEveryNetworkFaultAndLeavesNothingBehind() throws Exception {
        assumeTrue(VirtualNetwork.unusable().isEmpty(), () -> VirtualNetwork.unusable().orElse(""));
        assumeTrue(Cgroup.unusable("freezer").isEmpty(), "needs the cgroup v1 freezer");
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "netns-grid-");
        Path schedule = Path.of(getClass().getResource("/netns-kinds-short.faults").toURI());
        StringWriter out = new StringWriter();
        int code = FtlabCommand.execute(new String[] {"grid", "--topology", "netns", "--clients", "2", "--think", "10",
            "--reply", "orig", "--posts", "1300", "--views", "0", "--warmup", "0", "--lab-warmup", "0",
            "--faults-file", schedule.toString(), "--out", runDir.toString()}, new PrintWriter(out, true),
                new PrintWriter(out, true));
        System.out.println(out);
        assertEquals(0, code, "the command's own output went to the console: see the test's output");

        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertEquals("complete", manifest.path("status").asText());
        assertTrue(manifest.path("audit").path("passed").asBoolean(), "the exactly-once audit passed");
        assertTrue(manifest.path("topology").get(0).asText().startsWith("netns 10.213.0.0/24"), manifest.toString());
        JsonNode status = new ObjectMapper().readTree(runDir.resolve("network.json").toFile());
        String tag = status.path("tag").asText();

        List<FaultRecord> faults = FaultRecord.readAll(runDir);
        assertEquals(List.of(FaultKind.CRASH, FaultKind.FLAKY, FaultKind.BANDWIDTH, FaultKind.PARTITION,
                FaultKind.LINK_DOWN, FaultKind.FREEZE), faults.stream().filter(f -> f.kind() != null)
                        .map(FaultRecord::kind).toList(), "every scheduled fault was injected, in order");
        for (FaultRecord f : faults) {
            if (f.kind() != null) {
                assertTrue(f.repairedUs() >= f.injectedUs(), f + " was repaired");
            }
        }
        FaultRecord linkDown = faults.stream().filter(f -> f.kind() == FaultKind.LINK_DOWN).findFirst().orElseThrow();
        assertEquals(1, linkDown.failures(), "a backup whose link is down for 2 s is suspected and replaced");

        assertFalse(ProcessTools.run(List.of("ip", "netns", "list"), null).contains("ftlab-" + tag),
                "no namespace of the run is left");
        FaultKindsIT.assertNothingLeft(runDir);
    }
}
