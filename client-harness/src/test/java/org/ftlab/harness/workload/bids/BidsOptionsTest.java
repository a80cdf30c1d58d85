package org.ftlab.harness.workload.bids;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.workload.GridLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The bids workload's options, parameters and columns: what they make of a command line, what they record in the
 * manifest (byte for byte what ftlab recorded before the workload owned them), and what the workload reads back.
 */
class BidsOptionsTest {
    private static final GridLine PLAIN = new GridLine("auction", null, null, null, null, null);

    @TempDir
    Path tmp;

    private static BidsOptions parsed(String... args) {
        BidsOptions options = new BidsOptions();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    /** A run directory holding {@code resource}, a manifest written by the ftlab before this one. */
    private Path run(String resource) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(resource));
        try (InputStream in = BidsOptionsTest.class.getResourceAsStream(resource)) {
            Files.write(dir.resolve(Manifest.FILE), in.readAllBytes());
        }
        return dir;
    }

    @Test
    void bidsNIsTheBidsWorkloadWithNPostsNoViewsAndOriginalReplies() {
        GridLine line = parsed("--bids", "40").applyTo(PLAIN);
        assertEquals(new GridLine("bids", 40, 0, "orig", null, null), line);
        assertEquals("256", parsed("--bids", "40").applyTo(PLAIN.withReply("256")).reply(),
                "a reply given stays (and is refused later)");
        assertEquals(PLAIN, parsed("--hot-auctions", "3").applyTo(PLAIN), "only --bids chooses the workload");
    }

    @Test
    void whatTheOptionsRecordIsWhatFtlabRecordedBefore() throws IOException {
        assertEquals(Manifest.readAny(run("stateful-off.manifest.json")).workloadParameters().toString(),
                parsed("--hot-auctions", "4", "--tier", "stateful", "--determinism", "off", "--silence", "lazy",
                        "--estimator", "constant", "--checkpoint-every", "250", "--work-spread", "5")
                        .parameters(PLAIN).toString());
        assertEquals(Manifest.readAny(run("stateless.manifest.json")).workloadParameters().toString(),
                parsed("--tier", "stateless").parameters(PLAIN).toString());
        assertEquals(Manifest.readAny(run("hot-auctions.manifest.json")).workloadParameters().toString(),
                parsed("--bids", "5", "--hot-auctions", "7").parameters(PLAIN).toString());
        assertNull(parsed("--bids", "5").parameters(PLAIN), "nothing given, nothing recorded");
    }

    @Test
    void anEarlierRunsManifestReadsBackAndWritesAgainByteForByte() throws IOException {
        for (String resource : new String[] {"stateful-off.manifest.json", "stateful-on.manifest.json",
            "stateless.manifest.json", "hot-auctions.manifest.json"}) {
            Path old = run(resource);
            Path again = Files.createDirectories(tmp.resolve("again-" + resource));
            Manifest.readAny(old).writeTo(again);
            assertEquals(Files.readString(old.resolve(Manifest.FILE)), Files.readString(again.resolve(Manifest.FILE)),
                    resource);
        }
    }

    @Test
    void theWorkloadReadsItsParametersBack() throws IOException {
        ObjectNode recorded = Manifest.readAny(run("hot-auctions.manifest.json")).workloadParameters();
        assertEquals(7, ((BidsWorkload) new BidsWorkload().configured(recorded)).hotAuctions());
        assertEquals(BidsWorkload.DEFAULT_HOT_AUCTIONS, ((BidsWorkload) new BidsWorkload().configured(null))
                .hotAuctions());
        BidsParameters tier = BidsParameters.of(Manifest.readAny(run("stateful-on.manifest.json"))
                .workloadParameters());
        assertEquals(new BidsParameters.StatefulTier("on", "curiosity", "regression", 500, 3, 9), tier.stateful());
    }

    @Test
    void theTierColumnSaysWhereEachRunsStateLived() throws IOException {
        assertEquals("stateful, determinism off", TierColumns.tier(run("stateful-off.manifest.json")));
        assertEquals("stateful", TierColumns.tier(run("stateful-on.manifest.json")));
        assertEquals("stateless", TierColumns.tier(run("stateless.manifest.json")));
        assertEquals("-", TierColumns.tier(tmp), "no manifest");
        assertNull(TierColumns.recoveryMillis(tmp), "no stateful.json: no recovery");
    }

    @Test
    void eachMisfitIsOneLineInTheWordsFtlabAlwaysUsed() {
        assertEquals("--bids runs the bids workload; --workload nope is another: give one of them",
                refusal(() -> parsed("--bids", "5").applyTo(PLAIN.withWorkload("nope"))));
        assertEquals("--bids N gives the bids per client: leave out --posts and --views",
                refusal(() -> parsed("--bids", "5").applyTo(new GridLine("auction", null, 0, null, null, null))));
        assertEquals("--bids must be at least 1, was 0", refusal(() -> parsed("--bids", "0").applyTo(PLAIN)));
        assertEquals("--tier must be stateless or stateful, was 'bogus'",
                refusal(() -> parsed("--tier", "bogus").parameters(PLAIN)));
        assertEquals("--determinism, --silence, --estimator, --checkpoint-every and --work-spread set the stateful "
                + "tier: add --tier stateful", refusal(() -> parsed("--silence", "lazy").parameters(PLAIN)));
        assertEquals("--tier stateful is passive replication (only the primary executes): run it with --strategy "
                + "preconnected or reactive, not preconnected,hedged", refusal(() -> parsed("--tier", "stateful")
                        .parameters(new GridLine("bids", null, null, null, "preconnected,hedged", null))));
        assertEquals("--tier stateful runs over --platform ejb only", refusal(() -> parsed("--tier", "stateful")
                .parameters(new GridLine("bids", null, null, null, null, "rest"))));
        assertEquals("--hot-auctions is the bids workload's; workload auction has no hot auctions",
                refusal(() -> parsed("--tier", "stateful", "--hot-auctions", "3").refuseFor("auction")));
        assertEquals("--tier stateful runs the bids workload (add --bids N); workload auction runs on the stateless "
                + "tier only", refusal(() -> parsed("--tier", "stateful").refuseFor("auction")));
        parsed("--tier", "stateless").refuseFor("auction"); // as before: the stateless tier is every workload's
        assertTrue(parsed("--work-spread", "3").given());
    }

    private static String refusal(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }
}
