package org.ftlab.harness.grid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.SimulatedReplicas;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.harness.workload.GridLine;
import org.ftlab.harness.workload.WorkloadOptionSet;
import org.ftlab.harness.workload.toy.PingWorkload;
import org.ftlab.rm.api.DegreeChange;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.Platform;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine;

/**
 * The grid code runs a workload it has never heard of, by the name the run directory records: a ping workload of the
 * test tree (its own operations, generator, checker, order and option), on replicas simulated in this JVM. Nothing in
 * the grid names it.
 */
class WorkloadOnSimulatedReplicasTest {
    @TempDir
    Path dir;

    /** Two configurations (1 and 2 clients), two replicates each, in random order, with warm-up. */
    private static final GridPlan PLAN = new GridPlan("custom", List.of(1, 2), List.of(0),
            List.of(ReplySize.ORIGINAL), 30, 0, new GridPlan.Design(5, 2, GridPlan.Order.RANDOM, 7L,
                    GridPlan.Arrival.CLOSED, List.of(), 0));

    /** The simulated replicas as a grid sees a lab; {@code afterPings}: called with each ping the lab has seen. */
    private GridLab lab(SimulatedReplicas replicas) {
        return new GridLab() {
            @Override
            public ManagerStatus status() {
                return replicas.status();
            }

            @Override
            public InjectedFault inject(FaultSpec spec) {
                throw new UnsupportedOperationException("a test crashes simulated replicas itself");
            }

            @Override
            public boolean awaitFullStrength(BooleanSupplier going, BooleanSupplier sparesCanWait) {
                return true;
            }

            @Override
            public boolean awaitReadyForFault(BooleanSupplier going, BooleanSupplier spareCanWait) {
                return true;
            }

            @Override
            public DegreeChange.Result setDegree(int n) {
                throw new UnsupportedOperationException("simulated replicas keep their degree");
            }

            @Override
            public FailoverClient client(Strategies.Kind kind, ClientTuning tuning, Duration giveUp,
                    Platform platform) throws Exception {
                // simulated replicas are reached in-process, whatever the platform
                return replicas.client(kind, tuning, giveUp);
            }

            @Override
            public Path runDir() {
                return dir;
            }
        };
    }

    private RunDirectory create(String workload) throws IOException {
        return RunDirectory.create(dir, PLAN, workload, "preconnected", FaultSchedule.NONE, 2, 0, "simulated", dir,
                RunSettings.DEFAULTS);
    }

    @Test
    void aWorkloadOfItsOwnPackageRunsThroughTheGridByNameAndItsCheckerVouchesForTheRun() throws Exception {
        SimulatedReplicas replicas = SimulatedReplicas.of(2);
        RunDirectory run = create(PingWorkload.NAME);
        StringWriter progress = new StringWriter();
        assertTrue(GridRunner.runToEnd(lab(replicas), run, new PrintWriter(progress, true)), progress.toString());

        Manifest m = Manifest.readAny(dir);
        assertEquals(PingWorkload.NAME, m.workload());
        assertEquals("complete", m.status());
        assertTrue(m.audit().passed(), m.audit().toString());
        // every request of every block: (1 + 2 clients) x 2 replicates x (5 warm-up + 30 measured), and the holds
        assertTrue(m.audit().postsChecked() >= 3 * 2 * 35, "the checker saw every ping: " + m.audit());
        assertTrue(progress.toString().contains("pings, each answered by the replica its row names"),
                progress.toString());
        assertEquals(4, m.configsDone().size());
        for (String block : m.configsDone()) {
            ProbeFile f = ProbeFile.read(dir.resolve("probes").resolve(block + ".csv"));
            assertTrue(f.size > 0, block);
        }
        assertTrue(Files.readString(dir.resolve("probes").resolve(m.configsDone().get(0) + ".csv"))
                .contains(",ping,"), "the workload's operation is what the probe rows name");
    }

    @Test
    void whenThePrimaryCrashesHalfWayThePingsFailOverAndTheCheckerStillFindsEachAnswered() throws Exception {
        SimulatedReplicas replicas = SimulatedReplicas.of(2);
        RunDirectory run = create(PingWorkload.NAME);
        AtomicBoolean crashed = new AtomicBoolean();
        StringWriter progress = new StringWriter() {
            @Override
            public void flush() {
                // the grid flushes its progress after each block: after the second, r1 crashes, so the next
                // block's first pings fail over
                if (toString().split(" done in ", -1).length > 2 && crashed.compareAndSet(false, true)) {
                    replicas.crash("r1");
                }
            }
        };
        assertTrue(GridRunner.runToEnd(lab(replicas), run, new PrintWriter(progress, true)), progress.toString());
        Manifest m = Manifest.readAny(dir);
        assertTrue(m.audit().passed(), m.audit().toString());
        assertEquals(List.of("r2"), replicas.view(), "the simulated manager confirmed the crash");
        String last = Files.readString(dir.resolve("probes").resolve(m.configsDone().get(3) + ".csv"));
        assertTrue(last.contains(",r2,") && !last.contains(",r1,"), "after the crash r2 answered every ping");
    }

    @Test
    void aWorkloadsOptionReachesItAndItsThreeOperationsRunInTheOrderItChose() throws Exception {
        // its option, parsed as 'ftlab grid' parses it: one of every registered workload's, added to a command line
        CommandSpec command = CommandSpec.create();
        WorkloadOptionSet options = WorkloadOptionSet.addTo(command);
        new CommandLine(command).parseArgs("--greetings", "2");
        WorkloadOptionSet.Choice choice = options.choose(new GridLine(PingWorkload.NAME, null, null, null, null,
                null));
        RunDirectory run = RunDirectory.create(dir, PLAN, choice.line().workload(), choice.parameters(),
                "preconnected", "ejb", FaultSchedule.NONE, 2, 0, "simulated", dir, RunSettings.DEFAULTS);
        StringWriter progress = new StringWriter();
        assertTrue(GridRunner.runToEnd(lab(SimulatedReplicas.of(2)), run, new PrintWriter(progress, true)),
                progress.toString());

        Manifest m = Manifest.readAny(dir);
        assertEquals("{\"greetings\":2}", m.workloadParameters().toString(), "the option, as the workload records it");
        assertTrue(m.audit().passed(), m.audit().toString());
        List<String> chosen = new ArrayList<>(List.of("hello", "hello"));
        chosen.addAll(Collections.nCopies(30, "ping"));
        chosen.addAll(List.of("bye", "bye"));
        assertEquals(4, m.configsDone().size());
        for (String block : m.configsDone()) {
            for (List<String[]> client : rowsByClient(block).values()) {
                List<String> measured = new ArrayList<>();
                String last = null;
                for (String[] row : client) {
                    if (row[1].equals(ProbeTable.PHASE_MEASURE)) {
                        measured.add(row[0]);
                        last = row[0];
                    } else if (row[1].equals(ProbeTable.PHASE_HOLD)) {
                        assertEquals(last, row[0], block + ": a client holds with the operation it has just done");
                    }
                }
                assertEquals(chosen, measured, block + ": greetings, pings, goodbyes, each client");
                assertEquals(5, client.stream().filter(r -> r[1].equals(ProbeTable.PHASE_WARMUP)).count(), block);
            }
        }
    }

    /** Each client's rows of {@code block}'s probe file, in the order it sent them: (method, phase). */
    private Map<String, List<String[]>> rowsByClient(String block) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("probes").resolve(block + ".csv"));
        List<String> header = List.of(lines.get(0).split(",", -1));
        Map<String, List<String[]>> out = new TreeMap<>();
        Map<String, List<Long>> seqs = new TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            String client = cells[header.indexOf("client")];
            out.computeIfAbsent(client, k -> new ArrayList<>()).add(new String[] {cells[header.indexOf("method")],
                cells[header.indexOf("phase")]});
            seqs.computeIfAbsent(client, k -> new ArrayList<>()).add(Long.parseLong(cells[header.indexOf("seq")]));
        }
        seqs.values().forEach(s -> assertEquals(s.stream().sorted().toList(), s, "rows in the order sent"));
        return out;
    }

    @Test
    void anUnknownWorkloadOrCountsAWorkloadCannotTakeAreRefusedBeforeAnythingIsWritten() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> create("nope"));
        assertTrue(unknown.getMessage().startsWith("unknown workload 'nope'; use one of ")
                && unknown.getMessage().contains("auction") && unknown.getMessage().contains(PingWorkload.NAME),
                unknown.getMessage());
        GridPlan withViews = new GridPlan("custom", List.of(1), List.of(0), List.of(ReplySize.ORIGINAL), 10, 10,
                GridPlan.Design.PLAIN);
        IllegalArgumentException views = assertThrows(IllegalArgumentException.class, () -> RunDirectory.create(dir,
                withViews, PingWorkload.NAME, "preconnected", FaultSchedule.NONE, 2, 0, "simulated", dir,
                RunSettings.DEFAULTS));
        assertEquals("workload toy-ping counts its pings with --posts and its greetings with --greetings: give "
                + "--views 0", views.getMessage(), "the workload's own words for counts it cannot take");
        assertTrue(!Files.exists(dir.resolve(Manifest.FILE)));
    }

    @Test
    void aWorkloadsOptionGivenToARunOfAnotherWorkloadIsRefusedInItsOwnWords() {
        CommandSpec command = CommandSpec.create();
        WorkloadOptionSet options = WorkloadOptionSet.addTo(command);
        new CommandLine(command).parseArgs("--greetings", "2");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> options.choose(
                new GridLine("auction", null, null, null, null, null)));
        assertEquals("--greetings is workload toy-ping's; workload auction does not greet", e.getMessage());
    }
}
