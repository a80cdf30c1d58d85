package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.ftlab.harness.lab.LabFile;
import org.ftlab.harness.probe.FaultsCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The baseline strategy, WildFly's own clustering: on a lab of WildFly's cluster (the high-availability server, one
 * JGroups cluster) its clients' calls are spread over the members by the EJB client, a crash loses and duplicates
 * nothing, and the pinned strategies run beside it on the same servers, still pinned
 * ({@link #aCrashUnderWildFlysClusterLosesAndDuplicatesNothingAndPinnedClientsBesideItStayOnTheirReplica}, which
 * {@link LabsIT}'s lab 10 runs on the lab of WildFly's cluster it boots for its own command: one lab's boot for both);
 * and the cluster strategy on a lab without WildFly's cluster is one line.
 */
@ExtendWith(RunningLab.class)
class WildFlyClusterIT {

    /** On {@code clusterLab}, a running lab of WildFly's cluster with one spare. */
    static void aCrashUnderWildFlysClusterLosesAndDuplicatesNothingAndPinnedClientsBesideItStayOnTheirReplica(
            Path clusterLab) throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-wildfly-cluster-");
        InProcessFtlab.Result r = InProcessFtlab.run("grid", "--strategy", "wildfly-cluster,preconnected", "--order", "sequential",
                "--clients", "2", "--think", "0", "--reply", "orig", "--posts", "400", "--views", "0",
                "--warmup", "0", "--lab-warmup", "100", "--faults", "crash", "--faults-per-config", "1",
                "--lab", clusterLab.toString(), "--out", runDir.toString());
        assertEquals(0, r.code(), r.err());
        LabFile lab = LabFile.read(clusterLab).orElseThrow();
        assertTrue(lab.wildflyCluster(), "a lab of WildFly's cluster");
        assertEquals(1, lab.spares(), "and its spare, which waits suspended");
        JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
        assertTrue(manifest.path("audit").path("passed").asBoolean(), "every post stored exactly once: "
                + manifest.path("audit"));
        assertTrue(manifest.path("audit").path("posts_checked").asInt() >= 1600, manifest.path("audit").toString());

        // the first block (sequential order) is the cluster's, and its fault a crash of a member clients were calling
        List<String> faults = Files.readAllLines(runDir.resolve("faults.csv"));
        assertEquals(FaultsCsv.HEADER, faults.get(0));
        String[] crash = faults.get(1).split(",", -1);
        assertEquals("crash", crash[1]);
        List<Map<String, String>> cluster = rows(runDir.resolve("probes/c02-t00-rorig-swildfly-cluster.csv"));
        assertTrue(cluster.stream().allMatch(row -> row.get("outcome").equals("ok")
                || row.get("outcome").equals("retried")), "every request completed");
        Map<String, Long> before = cluster.stream().filter(row -> row.get("fault_id").isEmpty())
                .collect(Collectors.groupingBy(row -> row.get("replica"), Collectors.counting()));
        assertTrue(before.size() >= 2 && before.values().stream().allMatch(n -> n >= 40),
                "the EJB client spreads calls over both members, not the view's primary only: " + before);
        List<Map<String, String>> resent = cluster.stream().filter(row -> row.get("outcome").equals("retried"))
                .toList();
        assertFalse(resent.isEmpty(), "calls in flight on the crashed member were sent again");
        for (Map<String, String> row : resent) {
            assertEquals(crash[0], row.get("fault_id"), "joined to the crash");
            assertNotEquals(crash[3], row.get("replica"), "answered by a surviving member");
            assertFalse(row.get("detect_us").isEmpty() || row.get("retry_us").isEmpty(), "with its phases: " + row);
            // the lost call, then the application's resends until one is answered: a resend the EJB client sends
            // to the crashed member again, before its cluster view drops it, fails at once and is sent once more
            assertTrue(Integer.parseInt(row.get("sent_to")) >= 2, "the lost call and at least one resend: " + row);
        }

        // the pre-connected clients on the same clustered servers: until a fault of their own, one replica served
        // them all (the servers' cluster affinity did not unpin their proxies)
        List<Map<String, String>> pinned = rows(runDir.resolve("probes/c02-t00-rorig-spreconnected.csv"));
        List<String> untilFault = new ArrayList<>();
        for (Map<String, String> row : pinned) {
            if (!row.get("fault_id").isEmpty()) {
                break;
            }
            untilFault.add(row.get("replica"));
        }
        assertFalse(untilFault.isEmpty());
        assertEquals(1, untilFault.stream().distinct().count(), "pinned to the primary: "
                + untilFault.stream().collect(Collectors.groupingBy(s -> s, Collectors.counting())));
    }

    @Test
    void theClusterStrategyOnALabWithoutWildFlysClusterIsOneLine() throws Exception {
        InProcessFtlab.Result r = InProcessFtlab.run("grid", "--strategy", "wildfly-cluster", "--clients", "1", "--posts", "10", "--views", "0",
                "--lab", RunningLab.dir().toString(), "--out",
                Files.createTempDirectory(Path.of("target").toAbsolutePath(), "grid-no-cluster-").toString());
        assertNotEquals(0, r.code());
        String text = r.err().strip();
        assertTrue(text.startsWith("ftlab: ") && text.contains("needs a lab of WildFly's cluster")
                && text.contains("ftlab lab --wildfly-cluster"), text);
        assertEquals(1, text.lines().count(), "one line: " + text);
    }

    private static List<Map<String, String>> rows(Path csv) throws Exception {
        return GridIT.rows(csv);
    }
}
