package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.harness.probe.ProbeTable;
import org.ftlab.rm.api.ManagerEndpoint;
import org.junit.jupiter.api.Test;

/** {@code scripts/ftlab} as a user runs it: a real process tree, real signals, and a check for leftovers. */
class FtlabCommandIT {
    private static final Path HOME = Path.of(System.getProperty("ftlab.home", "..")).toAbsolutePath().normalize();

    @Test
    void demoRunsTheGridAndBothCrashRunsPrintsTheSummaryAndLeavesNoProcessBehind() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "demo-");
        Process demo = ftlab("demo", "--out", runDir.toString(), "--clients", "1,2", "--think", "0",
                "--reply", "orig", "--posts", "5", "--views", "5", "--warmup", "2", "--lab-warmup", "10",
                // a crash run long enough (seconds) for its fault to meet a settled lab on a loaded machine: with 60
                // posts it once ended (1.4 s) while its fault still waited the 2 s after the lab's last view change
                "--crash-clients", "2", "--crash-posts", "200",
                "--crash-views", "20", "--crashes", "1");
        String output = readAll(demo, Duration.ofMinutes(6));

        assertEquals(0, demo.exitValue(), output);
        assertTrue(output.contains("replica r1: pid"), output);
        assertTrue(output.contains("replica r2: pid"), output);
        assertTrue(output.contains("== fault-free grid"), output);
        assertTrue(output.contains("== crash injection, preconnected clients"), output);
        assertTrue(output.contains("== crash injection, reactive clients"), output);
        assertTrue(output.contains("== crash injection, hedged clients"), output);
        assertTrue(output.contains("== crash runs side by side"), output);
        assertTrue(output.contains("faulty invocations:"), output);
        assertTrue(Files.exists(runDir.resolve("summary.txt")));
        for (String config : List.of("c01-t00-rorig", "c02-t00-rorig")) {
            List<String> probes = Files.readAllLines(runDir.resolve("grid/probes/" + config + ".csv"));
            assertEquals(ProbeTable.HEADER, probes.get(0));
            // 5 posts + 5 views per client measured, after 2 warm-up requests each
            int clients = config.startsWith("c01") ? 1 : 2;
            assertEquals(10 * clients, probes.stream().filter(l -> phaseOf(l).equals("measure,1")).count(), config);
            assertEquals(2 * clients, probes.stream().filter(l -> phaseOf(l).equals("warmup,1")).count(), config);
        }
        ObjectMapper json = new ObjectMapper();
        for (String part : List.of("grid", "crash-reactive", "crash-preconnected", "crash-hedged")) {
            JsonNode manifest = json.readTree(runDir.resolve(part + "/manifest.json").toFile());
            assertEquals("complete", manifest.path("status").asText(), part);
            assertTrue(manifest.path("audit").path("passed").asBoolean(), part);
            assertTrue(Files.exists(runDir.resolve(part + "/report/summary.json")), part + " has its statistics");
            assertTrue(Files.exists(runDir.resolve(part + "/report/index.html")), part + " has its report");
        }
        String index = Files.readString(runDir.resolve("index.html"));
        assertTrue(index.contains("crash-reactive/report/index.html"), index);
        assertTrue(index.contains("<td>hedged</td>") && index.contains("<td>preconnected</td>"),
                "the crash runs side by side: " + index);
        for (String part : List.of("crash-preconnected", "crash-hedged")) {
            JsonNode compared = json.readTree(runDir.resolve(part + "/report/summary.json").toFile());
            assertEquals("reactive", compared.path("compare").path("other_failover_strategy").asText(),
                    part + "'s report compares itself with the reactive run");
            assertTrue(compared.path("failover").path("faults").size() == 1, compared.path("failover").toString());
        }
        assertTrue(output.contains("magical 1%"), output);
        for (String part : List.of("crash-reactive", "crash-preconnected", "crash-hedged")) {
            List<String> faults = Files.readAllLines(runDir.resolve(part + "/faults.csv"));
            assertEquals(2, faults.size(), part + " logs its own crash only: " + faults + "; the demo's notes: "
                    + output.lines().filter(l -> l.contains("note:")).toList());
            assertTrue(faults.get(1).contains(",crash,"), faults.get(1));
        }
        assertNoProcessUses(runDir);
    }

    /**
     * Ctrl-C where users press it most: while the lab boots. The interrupt comes when the first replica's JVM is up
     * and its server still booting; the demo, the manager, the booting replica, the detector and the database must
     * all go. (An interrupt in the middle of a grid: GridIT's abort test.)
     */
    @Test
    void interruptWhileTheLabBootsStopsTheBootingReplicaAndEverythingElseAndLeavesNoProcessBehind() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "demo-int-");
        Process demo = ftlab("demo", "--out", runDir.toString(), "--posts", "100000");
        try {
            drain(demo);
            while (!replicaRunsIn(runDir)) {
                assertTrue(demo.isAlive(), "the demo exited " + (demo.isAlive() ? "" : demo.exitValue())
                        + " before its first replica started");
                Thread.sleep(100);
            }
            // A process started with SIGINT ignored (a test run started in the background of a shell without job
            // control, e.g. with nohup) keeps it ignored, and so does everything it starts: Ctrl-C cannot reach it.
            assertFalse(ignoresSigint(demo.pid()), "the demo ignores SIGINT because this test run does: start the "
                    + "tests from a shell that does not ignore it (not in the background of one without job control)");
            // What Ctrl-C delivers to the command (scripts/ftlab execs java, so this is the JVM).
            new ProcessBuilder("kill", "-INT", Long.toString(demo.pid())).start().waitFor();
            assertTrue(demo.waitFor(2, TimeUnit.MINUTES), "the demo stops within 2 min of Ctrl-C");
            assertNotEquals(0, demo.exitValue(), "an interrupted demo does not exit as a complete one");
        } finally {
            demo.destroyForcibly();
        }
        assertFalse(Files.exists(runDir.resolve("summary.txt")), "an interrupted run must not look complete");
        try (var files = Files.walk(runDir)) {
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().equals(ManagerEndpoint.FILE))
                    .toList(), "the manager went through its stop (it removes its endpoint file)");
        }
        assertFalse(Files.exists(runDir.resolve("grid/manifest.json")), "no grid began");
        assertNoProcessUses(runDir);
    }

    /**
     * Ctrl-C while a replicated database starts, at its most delicate moment: a Galera node joining the cluster by a
     * state transfer (its rsync daemon and MariaDB's transfer script running). The joiner, the transfer's processes,
     * the founding node and every data directory must go.
     */
    @Test
    void interruptWhileAGaleraNodeJoinsStopsEveryDatabaseProcessAndLeavesNoDataDirectory() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "lab-int-galera-");
        Process lab = ftlab("lab", "--database", "galera", "--out", runDir.toString());
        try {
            drain(lab);
            while (!stateTransferRunsIn(runDir)) {
                assertTrue(lab.isAlive(), "the lab exited " + (lab.isAlive() ? "" : lab.exitValue())
                        + " before a node's state transfer began");
                Thread.sleep(20);
            }
            assertFalse(ignoresSigint(lab.pid()), "the lab ignores SIGINT because this test run does");
            new ProcessBuilder("kill", "-INT", Long.toString(lab.pid())).start().waitFor();
            assertTrue(lab.waitFor(2, TimeUnit.MINUTES), "the lab stops within 2 min of Ctrl-C");
        } finally {
            lab.destroyForcibly();
        }
        assertNoProcessUses(runDir);
        try (var left = Files.list(runDir.resolve("db"))) {
            assertEquals(List.of(), left.filter(Files::isDirectory).toList(), "no database server's data is left");
        }
    }

    /** Reads {@code p}'s output to its end in a daemon thread, so that it never blocks on a full pipe. */
    private static void drain(Process p) {
        Thread drain = new Thread(() -> {
            try {
                p.getInputStream().transferTo(OutputStream.nullOutputStream());
            } catch (IOException e) {
                // the process is gone
            }
        });
        drain.setDaemon(true);
        drain.start();
    }

    /** Whether a Galera state transfer (MariaDB's wsrep_sst script) of this run directory is running. */
    private static boolean stateTransferRunsIn(Path runDir) {
        String dir = runDir.toString();
        return ProcessHandle.allProcesses().anyMatch(ph -> ph.info().commandLine()
                .map(c -> c.contains("wsrep_sst") && c.contains(dir)).orElse(false));
    }

    /** Whether a replica's server JVM (jboss-modules) of this run directory is running. */
    private static boolean replicaRunsIn(Path runDir) {
        String dir = runDir.toString();
        return ProcessHandle.allProcesses().anyMatch(ph -> ph.info().commandLine()
                .map(c -> c.contains("jboss-modules") && c.contains(dir)).orElse(false));
    }

    @Test
    void badOptionValuesGiveOneLineAndANonZeroExit() throws Exception {
        assertOneLineError(List.of("demo", "--replicas", "9"), "--replicas must be 2 to 5");
        assertOneLineError(List.of("demo", "--reply", "orig,huge"), "reply size must be 'original' or a byte count");
        assertOneLineError(List.of("grid", "--faults", "crash"), "needs exactly one of --fault-every");
        assertOneLineError(List.of("grid", "--faults-file", "no-such.faults"), "--faults-file no-such.faults is not a"
                + " file");
        // a faults file that needs the virtual network runs on it unless --topology says otherwise
        assertOneLineError(List.of("grid", "--topology", "local", "--faults-file",
                "../examples/faults/partitions.faults"), "partition needs hosts on a virtual network: run with "
                + "--topology netns");
        assertOneLineError(List.of("grid", "--fault-seed", "7"), "--fault-seed needs --faults-per-config N");
        assertOneLineError(List.of("grid", "--topology", "cloud"), "--topology must be local or netns");
        assertOneLineError(List.of("grid", "--fault-seed", "7", "--faults", "crash", "--faults-per-config", "1"),
                "choose one of --faults-file, --fault-seed and --faults");
        assertOneLineError(List.of("grid", "--profile", "medium"), "profile must be quick, paper, full or infra");
        assertOneLineError(List.of("grid", "--arrival", "poisson"), "--arrival poisson needs --rate");
        assertOneLineError(List.of("grid", "--rate", "50"), "--rate applies to open-loop arrivals");
        assertOneLineError(List.of("grid", "--arrival", "poisson", "--rate", "50", "--think", "20"),
                "--think applies to closed-loop arrivals");
        assertOneLineError(List.of("grid", "--order", "shuffled"), "--order must be random or sequential");
        assertOneLineError(List.of("grid", "--repeat", "0"), "--repeat must be 1 to 100");
        assertOneLineError(List.of("grid", "--warmup", "-1"), "--warmup must be 0 to");
        assertOneLineError(List.of("grid", "--clients", "1,x"), "--clients must be comma-separated whole numbers");
        assertOneLineError(List.of("grid", "--strategy", "preconnected,bogus"), "fail-over strategy must be one of");
        assertOneLineError(List.of("grid", "--strategy", "active,active"), "--strategy names a level twice");
        assertOneLineError(List.of("grid", "--replicas", "2,7"), "--replicas levels must be 1 to 5, was 7");
        assertOneLineError(List.of("grid", "--platform", "ejb,corba"), "--platform must be one of ejb, rest, was "
                + "'corba'");
        assertOneLineError(List.of("grid", "--platform", "rest,rest"), "--platform names a level twice");
        assertOneLineError(List.of("grid", "--strategy", "wildfly-cluster", "--platform", "rest"),
                "is WildFly's remote EJB client: it runs over --platform ejb only");
        assertOneLineError(List.of("bench", "--suites", "failover", "--failover-strategies", "wildfly-cluster"),
                "needs a lab of WildFly's cluster: add --wildfly-cluster");
        assertOneLineError(List.of("grid", "--hot-auctions", "3"), "--hot-auctions is the bids workload's");
        assertOneLineError(List.of("grid", "--bids", "10", "--hot-auctions", "0"), "--hot-auctions must be 1 to 1000");
        assertOneLineError(List.of("grid", "--bids", "10", "--posts", "5"), "--bids N gives the bids per client");
        assertOneLineError(List.of("grid", "--workload", "bids", "--views", "0", "--reply", "orig,256"),
                "reads the values of its replies, which sized replies do not carry: give --reply orig");
        assertOneLineError(List.of("demo", "--profile", "infra"), "varies the infrastructure: run it with 'ftlab "
                + "grid --profile infra'");
        assertOneLineError(List.of("grid", "--replicas", "1,2", "--faults", "crash", "--faults-per-config", "1"),
                "faults need at least 2 replicas (a backup to fail over to) in every block");
        assertOneLineError(List.of("demo", "--db-url", "jdbc:postgresql://h/db", "--db-user", "u"),
                "must start with jdbc:mysql://");
        assertOneLineError(List.of("demo", "--db-user", "u"), "--db-user and --db-password go with --db-url");
        assertOneLineError(List.of("demo", "--no-such-option"), "Unknown option");
        assertOneLineError(List.of("analyze", "/nonexistent-run"), "is not a directory");
        assertOneLineError(List.of("analyze", "target"), "has no probes/ directory");
        assertOneLineError(List.of("analyze", "target", "--compare", "target"), "names the run being analysed");
        assertOneLineError(List.of("analyze", "target", "--demerits", "late=2"), "not one of failed=N");
        assertOneLineError(List.of("bench", "--repeat", "0"), "--repeat must be between 1 and 100");
        assertOneLineError(List.of("bench", "--suites", "attribution", "--cost-pairs", "101"),
                "--cost-pairs must be 0 to 100");
        Files.createDirectories(Path.of("target", "bench-earlier", "attribution"));
        assertOneLineError(List.of("bench", "--suites", "attribution", "--observe", "on", "--out",
                "target/bench-earlier"),
                "holds an earlier bench's attribution run: give --out a new directory");
        assertOneLineError(List.of("bench", "--lab", "target"), "--lab target: no lab there; start one with 'ftlab lab");
        assertOneLineError(List.of("bench", "--lab", "target", "--server-dir", "target"),
                "--server-dir: the lab in --lab has its own; give it to 'ftlab lab'");
        assertOneLineError(List.of("grid", "--lab", "target"), "--lab target: no lab there; start one with 'ftlab lab");
        assertOneLineError(List.of("grid", "--lab", "target", "--replicas", "3", "--heartbeat-ms", "50"),
                "--replicas --heartbeat-ms: the lab in --lab has its own; give them to 'ftlab lab'");
        assertOneLineError(List.of("lab", "--replicas", "9"), "--replicas must be 1 to 5");
        assertOneLineError(List.of("lab", "--spares", "4"), "--spares must be 0 to 3");
        assertOneLineError(List.of("lab", "--heartbeat-ms", "100", "--heartbeat-timeout-ms", "150"),
                "at least twice --heartbeat-ms");
        assertOneLineError(List.of("grid", "--observe", "maybe"), "--observe must be on or off");
        assertOneLineError(List.of("lab", "--observe", "yes"), "--observe must be on or off");
        assertOneLineError(List.of("grid", "--fault-seed", "7", "--faults-per-config", "1", "--fault-mix", "gc"),
                "--fault-mix must be one of process, database, network, local, stalls, all");
        assertOneLineError(List.of("demo", "--server-dir", "/nonexistent", "--out",
                Path.of("target/never").toAbsolutePath().toString()), "no provisioned replica server");
    }

    @Test
    void aGaleraLabOnAMachineWithoutGaleraIsOneLineWithTheInstallCommandAndStartsNothing() throws Exception {
        Path runDir = Path.of("target/no-galera").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder(HOME.resolve("scripts/ftlab").toString(), "grid", "--database",
                "galera", "--posts", "10", "--views", "10", "--out", runDir.toString()).redirectErrorStream(true);
        pb.environment().put("FTLAB_GALERA_PROVIDER", "/nonexistent/libgalera_smm.so"); // as if galera-4 were not there
        Process p = pb.start();
        String text = readAll(p, Duration.ofSeconds(60)).strip();
        assertTrue(p.exitValue() != 0, text);
        assertEquals("ftlab: --database galera needs Galera's provider (Debian's galera-4), which this machine lacks; "
                + "install them with scripts/install-galera (as root: apt-get install galera-4 rsync, and the scripts "
                + "from Debian's mariadb-server package)", text);
        assertFalse(Files.exists(runDir), "no run started");
    }

    private static void assertOneLineError(List<String> args, String expected) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = FtlabCommand.execute(args.toArray(String[]::new), new PrintWriter(out, true),
                new PrintWriter(err, true));
        String text = err.toString().strip();
        assertTrue(code != 0, args + " should fail");
        assertTrue(text.startsWith("ftlab: ") && text.contains(expected), args + " gave: " + text);
        assertEquals(1, text.lines().count(), "one line, no stack trace: " + text);
    }

    private static Process ftlab(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(HOME.resolve("scripts/ftlab").toString()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    private static String readAll(Process p, Duration timeout) throws Exception {
        StringBuilder sb = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                sb.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                sb.append(e);
            }
        });
        reader.start();
        if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out after " + timeout);
        }
        reader.join(10_000);
        return sb.toString();
    }

    /** No java (WildFly) or mariadbd process may still name the run directory on its command line. */
    static void assertNoProcessUses(Path runDir) throws InterruptedException {
        String dir = runDir.toString();
        List<String> left = List.of();
        for (int attempt = 0; attempt < 50; attempt++) {
            left = ProcessHandle.allProcesses()
                    .filter(ph -> ph.info().commandLine().map(c -> c.contains(dir)).orElse(false))
                    .map(ph -> ph.pid() + " " + ph.info().commandLine().orElse(""))
                    .toList();
            if (left.isEmpty()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("processes left behind: " + left);
    }

    /** A probe row's {@code phase,replicate} columns. */
    private static String phaseOf(String row) {
        String[] f = row.split(",", -1);
        return f.length > 19 ? f[18] + "," + f[19] : "";
    }

    /** Whether process {@code pid} ignores SIGINT (its {@code SigIgn} mask in {@code /proc/PID/status}). */
    static boolean ignoresSigint(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << 1)) != 0;
            }
        }
        return false;
    }
}
