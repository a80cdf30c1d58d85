package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.ftlab.harness.history.History;
import org.ftlab.harness.history.HistoryEvent;
import org.ftlab.harness.history.HistoryFiles;
import org.ftlab.harness.history.check.HistoryCheck;
import org.ftlab.harness.history.check.Linearizability;
import org.ftlab.harness.workload.bids.AuctionRaceModel;
import org.ftlab.harness.workload.bids.bench.SyntheticBids;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * ftlab's linearizability checker held to one nobody here wrote: Porcupine (Go), with the auction's model written
 * apart from ftlab's (tools/porcupine-check). On races that are linearizable and on the same races broken in one
 * place, both must give every key the same verdict. The races are small and of few clients, as the lab's runs are:
 * Porcupine has no reduction for operations that leave the state as it is, and its search grows fast with many
 * operations in flight.
 */
class PorcupineAgreementIT {
    private static final Path HOME = Path.of(System.getProperty("ftlab.home", "..")).toAbsolutePath().normalize();
    private static Path porcupine;

    @BeforeAll
    static void build() throws Exception {
        porcupine = Path.of("target").toAbsolutePath().resolve("porcupine-check");
        Process p = new ProcessBuilder("go", "build", "-o", porcupine.toString(), ".")
                .directory(HOME.resolve("tools/porcupine-check").toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "go build did not finish");
        assertEquals(0, p.exitValue(), "go build: " + out);
    }

    /** Porcupine's verdict on each key of the run in {@code runDir}: ok, illegal or unknown. */
    private static Map<String, String> porcupine(Path runDir) throws Exception {
        Process p = new ProcessBuilder(porcupine.toString(), runDir.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "porcupine-check did not finish");
        Map<String, String> verdicts = new TreeMap<>();
        for (String line : out.split("\n")) {
            String[] w = line.trim().split(" ");
            if (w.length == 2) {
                verdicts.put(w[0], w[1]);
            }
        }
        return verdicts;
    }

    /** ftlab's verdict on each key, in Porcupine's words. */
    private static Map<String, String> ftlab(Path runDir) throws Exception {
        HistoryCheck.Report r = HistoryCheck.check(HistoryFiles.readRun(runDir), new AuctionRaceModel(),
                HistoryCheck.Limits.of(2, 512, 600));
        Map<String, String> verdicts = new TreeMap<>();
        for (HistoryCheck.KeyResult k : r.keys()) {
            verdicts.put(k.key(), k.result().verdict() == Linearizability.Verdict.VALID ? "ok"
                    : k.result().verdict() == Linearizability.Verdict.INVALID ? "illegal" : "unknown");
        }
        return verdicts;
    }

    private static Path race(String name, int clients, long seed) throws IOException {
        Path run = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "porcupine-" + name + "-");
        SyntheticBids.write(run.resolve(History.DIR), 4_000, 4, clients, 0.002, seed);
        return run;
    }

    /** Rewrites the run's history with {@code change} applied to the {@code n}-th event that {@code which} picks. */
    private static void breakOne(Path run, Predicate<HistoryEvent> which,
            UnaryOperator<ObjectNode> change) throws IOException {
        List<HistoryEvent> events = new ArrayList<>(HistoryFiles.readRun(run));
        for (int i = events.size() / 2; i < events.size(); i++) {
            HistoryEvent e = events.get(i);
            if (which.test(e)) {
                events.set(i, new HistoryEvent(e.index(), e.type(), e.f(), change.apply(e.value().deepCopy()),
                        e.process(), e.timeNanos(), e.key(), e.client(), e.seq(), e.replica(), e.fault()));
                break;
            }
        }
        Path dir = run.resolve(History.DIR);
        try (var parts = Files.list(dir)) {
            for (Path p : parts.toList()) {
                Files.delete(p);
            }
        }
        HistoryFiles.write(dir, events);
    }

    @Test
    void onLinearizableRacesAtSeveralConcurrenciesBothSayEveryKeyIsLinearizable() throws Exception {
        for (int clients : new int[] {2, 4}) {
            Path run = race("valid" + clients, clients, clients);
            Map<String, String> ours = ftlab(run);
            assertEquals(porcupine(run), ours, clients + " clients");
            assertTrue(ours.values().stream().allMatch("ok"::equals), ours.toString());
        }
    }

    @Test
    void onARaceWithOneReplyCountingABidTooManyBothNameTheSameKey() throws Exception {
        Path run = race("count", 4, 3);
        breakOne(run, e -> e.type() == HistoryEvent.Type.OK && e.f().equals("offer")
                && e.value().path("accepted").asBoolean(), v -> v.put("count", v.path("count").asInt() + 1));
        Map<String, String> ours = ftlab(run);
        assertEquals(porcupine(run), ours);
        assertEquals(1, ours.values().stream().filter("illegal"::equals).count(), ours.toString());
    }

    @Test
    void onARaceWhoseFinalReadLostAnAcknowledgedBidBothNameTheSameKey() throws Exception {
        Path run = race("lost", 4, 4);
        breakOne(run, e -> e.type() == HistoryEvent.Type.OK && e.f().equals("read")
                && e.value().path("bids").size() > 2, v -> {
                    ((ArrayNode) v.get("bids")).remove(1);
                    return v;
                });
        Map<String, String> ours = ftlab(run);
        assertEquals(porcupine(run), ours);
        assertEquals(1, ours.values().stream().filter("illegal"::equals).count(), ours.toString());
    }
}
