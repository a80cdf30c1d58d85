package org.ftlab.os.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.ftlab.os.Janitor;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.Undo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real network namespaces, veth links, nftables and tbf (root only; skipped otherwise, with the reason): each network
 * fault is made where it should be and its undo takes it away, and removing the network leaves no namespace.
 */
class VirtualNetworkTest {
    private VirtualNetwork net;

    @BeforeEach
    void makeANetworkOfTwoHosts() throws Exception {
        assumeTrue(VirtualNetwork.unusable().isEmpty(), () -> VirtualNetwork.unusable().orElse(""));
        net = VirtualNetwork.create();
        net.addHost("r1");
        net.addHost("db");
    }

    @AfterEach
    void removeIt() throws Exception {
        if (net != null) {
            net.removeAll();
            assertFalse(net.anyLeft(), "every namespace of the lab is gone");
        }
    }

    private static String in(String ns, String... command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns));
        cmd.addAll(List.of(command));
        return ProcessTools.run(cmd, null);
    }

    @Test
    void everyHostHasItsAddressOnItsOwnLinkAndTheSwitchBridgesThem() throws Exception {
        String r1 = net.layout().namespace("r1");
        assertTrue(in(r1, "ip", "-4", "addr", "show", "eth0").contains(net.layout().address("r1") + "/24"));
        String bridge = in(net.layout().switchNamespace(), "ip", "link", "show", "master", "br0");
        assertTrue(bridge.contains("vr1") && bridge.contains("vdb"), bridge);
        assertTrue(net.pids("r1").isEmpty(), "nothing runs there yet");
    }

    @Test
    void removingTheNetworkKillsWhatRunsOnItsHostsButSparesTheJanitorsThatUndoFaults() throws Exception {
        Placement r1 = net.placement("r1");
        Process worker = new ProcessBuilder(r1.wrap(List.of("sh", "-c", "echo ready; exec sleep 300"))).start();
        // the janitor's stand-in ends only when told to, with a status of its own: 7
        Process janitor = new ProcessBuilder(r1.wrap(List.of("sh", "-c", "echo ready; read x; exit 7",
                Janitor.NAME))).start();
        try {
            awaitReady(worker);
            awaitReady(janitor);
            assertTrue(net.pids("r1").size() >= 2, "both run on host r1 (the janitor's shell may have a child)");
            net.removeAll();
            assertEquals(128 + 9, worker.waitFor(), "the worker was killed (SIGKILL)");
            try (var in = janitor.getOutputStream()) {
                in.write('\n');
            }
            assertEquals(7, janitor.waitFor(), "the janitor was spared: it ended when told to, by itself");
        } finally {
            worker.destroyForcibly();
            janitor.destroyForcibly();
        }
    }

    /** Waits for the process's first line, {@code ready}: it runs on its host. */
    private static void awaitReady(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertEquals("ready", out.readLine());
    }

    @Test
    void aLinkDownIsTheBridgesEndOfTheHostsLinkAndItsUndoBringsItBack() throws Exception {
        Undo undo = net.linkDown("r1");
        String sw = net.layout().switchNamespace();
        assertTrue(in(sw, "ip", "link", "show", "vr1").contains("state DOWN"));
        undo.run();
        assertFalse(in(sw, "ip", "link", "show", "vr1").contains("state DOWN"));
    }

    @Test
    void aPartitionAndRandomDropsAreNftablesTablesInTheHostThatTheUndoDeletes() throws Exception {
        String r1 = net.layout().namespace("r1");
        Undo partition = net.partition("ftlab_f1", List.of("r1"), List.of("db"));
        String rules = in(r1, "nft", "list", "table", "ip", "ftlab_f1");
        assertTrue(rules.contains("ip saddr " + net.layout().address("db") + " drop"), rules);
        assertTrue(rules.contains("ip daddr " + net.layout().address("db") + " drop"), rules);
        Undo flaky = net.flaky("ftlab_f2", "r1", 20);
        assertTrue(in(r1, "nft", "list", "table", "ip", "ftlab_f2").contains("numgen random mod 10000 < 2000"));
        assertTrue(partition.script().contains("nft delete table ip ftlab_f1"), "the janitor can undo it too");
        partition.run();
        flaky.run();
        assertEquals("", in(r1, "nft", "list", "tables").strip(), "no table left");
    }

    @Test
    void aTcpResetRejectsTheTwoHostsSegmentsWithResetsAndAOneWayCutDropsOnlyWhatLeavesTheFirst() throws Exception {
        String r1 = net.layout().namespace("r1");
        String db = net.layout().address("db");
        Undo reset = net.tcpReset("ftlab_f3", "r1", "db");
        String rules = in(r1, "nft", "list", "table", "ip", "ftlab_f3");
        // nft lists the rule without its implied "meta l4proto tcp": a TCP reset is only for TCP segments
        assertTrue(rules.contains("ip saddr " + db + " reject with tcp reset"), rules);
        assertTrue(rules.contains("ip daddr " + db + " reject with tcp reset"), rules);
        Undo oneWay = net.oneWay("ftlab_f4", "r1", "db");
        rules = in(r1, "nft", "list", "table", "ip", "ftlab_f4");
        assertTrue(rules.contains("ip daddr " + db + " drop"), rules);
        assertFalse(rules.contains("ip saddr"), "what db sends r1 still arrives: " + rules);
        assertTrue(oneWay.script().contains("nft delete table ip ftlab_f4"), "the janitor can undo it too");
        reset.run();
        oneWay.run();
        assertEquals("", in(r1, "nft", "list", "tables").strip(), "no table left");
    }

    @Test
    void aBandwidthLimitIsATokenBucketOnBothEndsOfTheLink() throws Exception {
        Undo undo = net.bandwidth("r1", 500);
        String r1 = net.layout().namespace("r1");
        String sw = net.layout().switchNamespace();
        assertTrue(in(r1, "tc", "qdisc", "show", "dev", "eth0").contains("tbf"));
        assertTrue(in(sw, "tc", "qdisc", "show", "dev", "vr1").contains("tbf"));
        undo.run();
        assertFalse(in(r1, "tc", "qdisc", "show", "dev", "eth0").contains("tbf"));
        assertFalse(in(sw, "tc", "qdisc", "show", "dev", "vr1").contains("tbf"));
    }
}
