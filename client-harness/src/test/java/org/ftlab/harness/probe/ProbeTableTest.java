package org.ftlab.harness.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ServerProbes;
import org.ftlab.harness.failover.FailoverPhases;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeTableTest {

    @Test
    void csvHasTheDocumentedHeaderAndOneRowPerRequestInColumnOrder(@TempDir Path dir) throws Exception {
        ProbeTable t = new ProbeTable("c1", 4);
        t.recordOk(7, "viewAuction", 256, 1000, 1900, new Reply<>(null, new byte[256], false, "r1",
                new ServerProbes(1100, 1200, 1650, 1700, 1800, 42, 300, 25, 90, 11, 7, 1050)));
        t.clientRunQueue(0, 7);
        t.replyDigest(0, "0af3");
        t.recordFailure(8, "postAuction", 2000, 2500, new IllegalStateException("boom"));
        Path file = dir.resolve("probes/c01.csv");
        ProbeTable.writeCsv(file, List.of(t));

        List<String> lines = Files.readAllLines(file);
        assertEquals(ProbeTable.HEADER, lines.get(0));
        // closed loop: intended = sent, phase measure, replicate 1
        assertEquals("c1,7,viewAuction,256,1000,1900,1100,1200,1700,1800,1000,r1,ok,,,,,1000,measure,1,1,1650,42,300,25,7,90,11,7,0af3,1050",
                lines.get(1));
        assertEquals("c1,8,postAuction,,2000,2500,,,,,2000,,failed:IllegalStateException,,,,,2000,measure,1,,,,,,,,,,,",
                lines.get(2));
        assertEquals(3, lines.size());
        assertEquals(31, lines.get(0).split(",", -1).length);
        assertEquals(31, lines.get(1).split(",", -1).length);
        assertEquals(31, lines.get(2).split(",", -1).length);
    }

    @Test
    void aReplyDigestIsLowerCaseHexOrNothing() {
        ProbeTable t = new ProbeTable("c", 1);
        int row = t.claim(1, "offerBid", 0, ProbeTable.Phase.MEASURE);
        t.replyDigest(row, "00ff");
        assertEquals("00ff", t.replyDigestAt(row));
        t.replyDigest(row, null);
        assertEquals(null, t.replyDigestAt(row));
        Assertions.assertThrows(IllegalArgumentException.class,
                () -> t.replyDigest(row, "a,b"), "a digest cannot break the row");
    }

    @Test
    void writingLeavesNoTemporaryFileBehind(@TempDir Path dir) throws Exception {
        ProbeTable.writeCsv(dir.resolve("p.csv"), List.of(new ProbeTable("c", 1)));
        assertFalse(Files.exists(dir.resolve("p.csv.tmp")));
        assertEquals(List.of(ProbeTable.HEADER), Files.readAllLines(dir.resolve("p.csv")));
    }

    @Test
    void latencyIsClientReceiveMinusClientSend() {
        ProbeTable t = new ProbeTable("c", 1);
        t.recordOk(1, "viewAuction", -1, 10_000, 12_345, new Reply<>(null, null, false, "r1",
                new ServerProbes(10_100, 10_200, 12_000, 12_100)));
        assertEquals(2_345, t.latencyMicros(0));
    }

    @Test
    void anOpenLoopRowKeepsItsIntendedTimeAndItsLatencyCountsFromIt() throws Exception {
        ProbeTable t = new ProbeTable("c", 2, 3);
        int row = t.claim(9, "postAuction", 5_000, ProbeTable.Phase.MEASURE);
        int warm = t.claim(10, "viewAuction", 6_000, ProbeTable.Phase.WARMUP);
        // completed by another thread, as an open-loop worker does
        Thread worker = new Thread(() -> t.ok(row, -1, 8_000, 9_000, new Reply<>(null, null, false, "r2",
                new ServerProbes(8_100, 8_200, 8_800, 8_900))));
        worker.start();
        worker.join();
        t.failed(warm, 6_000, 6_500, new IllegalStateException("x"));
        assertEquals(4_000, t.latencyMicros(row)); // 9,000 received − 5,000 intended, not − 8,000 sent
        assertEquals(ProbeTable.Phase.WARMUP, t.phaseAt(warm));
        // rows beyond the planned capacity (hold rows) still fit
        int hold = t.claim(11, "viewAuction", 7_000, ProbeTable.Phase.HOLD);
        t.failed(hold, 7_000, 7_100, new IllegalStateException("y"));
        Path dir = Files.createTempDirectory("probe");
        ProbeTable.writeCsv(dir.resolve("x.csv"), List.of(t));
        List<String> lines = Files.readAllLines(dir.resolve("x.csv"));
        assertTrue(lines.get(1).endsWith(",5000,measure,3,1,,,,,,,,,,"), lines.get(1));
        assertTrue(lines.get(2).endsWith(",6000,warmup,3,,,,,,,,,,,"), lines.get(2));
        assertTrue(lines.get(3).endsWith(",7000,hold,3,,,,,,,,,,,"), lines.get(3));
    }

    @Test
    void aRequestDivertedFromAFailedReplicaAfterThePromotionStillBelongsToItsFault() {
        ProbeTable t = new ProbeTable("c", 4);
        Reply<String> fromR2 = new Reply<>(null, null, false, "r2", new ServerProbes(0, 0, 0, 0));
        FailoverPhases viaR1 = new FailoverPhases("r1", 20, 3,
                30, 2);
        // r1 hangs at 1,000 and r2 is promoted at 1,200; this client still sends to r1 at 1,400
        int during = t.claim(1, "postAuction", 900, ProbeTable.Phase.MEASURE);
        t.served(during, -1, 900, 1_100, fromR2, "hedged", viaR1, 2);
        int late = t.claim(2, "postAuction", 1_400, ProbeTable.Phase.MEASURE);
        t.served(late, -1, 1_400, 1_460, fromR2, "retried", viaR1, 2);
        int plain = t.claim(3, "postAuction", 1_500, ProbeTable.Phase.MEASURE);
        t.served(plain, -1, 1_500, 1_510, fromR2, "ok", null, 1);
        int earlier = t.claim(4, "postAuction", 100, ProbeTable.Phase.MEASURE);
        t.served(earlier, -1, 100, 150, fromR2, "retried", viaR1, 2); // before the fault: not its doing

        t.markOverlapping("f1", 1_000, 1_200);
        t.markDivertedFrom("f1", "r1", 1_000);
        t.markDivertedFrom("f1", "r3", 1_000);

        assertEquals("f1", t.faultIdAt(during));
        assertEquals("f1", t.faultIdAt(late));
        assertEquals(null, t.faultIdAt(plain));
        assertEquals(null, t.faultIdAt(earlier));
    }
}
