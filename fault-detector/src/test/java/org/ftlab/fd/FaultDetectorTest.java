package org.ftlab.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The Fault Detector against real member processes and real signals: a SIGKILLed member is reported as a crash, a
 * SIGSTOPped one as a hang, and a member that merely joins is not reported at all (its first report comes after the
 * signal). Reports go to a stand-in for the Replication Manager's {@code /failure} endpoint.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES) // only a guard against a detector that never reports
@Execution(ExecutionMode.CONCURRENT) // most of each test is waiting for JGroups: they wait together
class FaultDetectorTest {
    /** The reports about each member, by its name (the tests run at once, each with its own members). */
    private static final Map<String, BlockingQueue<FailureReport>> REPORTS = new ConcurrentHashMap<>();
    private static HttpServer manager;
    private static FaultDetector detector;
    private static int detectorPort;
    private static final String MERGE_MIN = "ftlab.hb.merge_min_interval";
    private static final String MERGE_MAX = "ftlab.hb.merge_max_interval";

    @BeforeAll
    static void startDetector(@TempDir Path dir) throws Exception {
        manager = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        manager.createContext("/failure", ex -> {
            FailureReport report = FailureReport.fromForm(form(new String(ex.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8)));
            reportsAbout(report.replica()).add(report);
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        manager.start();
        detectorPort = freePortPair();
        // merges looked for every 0.5-1 s rather than the lab's 2-5 s: the merge tests wait for two of them
        System.setProperty(MERGE_MIN, "500ms");
        System.setProperty(MERGE_MAX, "1s");
        detector = FaultDetector.start(detectorPort, managerUrl(), 100, 500,
                dir.resolve("detector.log"));
    }

    @AfterAll
    static void stop() {
        detector.close();
        manager.stop(0);
    }

    @Test
    void joiningMemberIsNotReportedAndAKilledOneIsReportedAsACrash() throws Exception {
        Process member = startMember("crashme");
        try {
            long killedEpochUs = FaultDetector.epochMicros();
            member.destroyForcibly(); // SIGKILL
            FailureReport report = firstReportAbout("crashme");
            assertTrue(report.detectedEpochUs() >= killedEpochUs, "a member that joins is not a failure: reported "
                    + "only after it was killed, " + report);
            assertEquals(member.pid(), report.pid());
            assertEquals(FailureKind.CRASH, report.kind());
        } finally {
            member.destroyForcibly();
        }
    }

    @Test
    void stoppedMemberIsReportedAsAHang() throws Exception {
        Process member = startMember("hangme");
        try {
            long stoppedEpochUs = FaultDetector.epochMicros();
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(member.pid())).start().waitFor());
            FailureReport report = firstReportAbout("hangme");
            assertTrue(report.detectedEpochUs() >= stoppedEpochUs, "reported only after it was stopped, " + report);
            assertEquals(FailureKind.HANG, report.kind());
        } finally {
            member.destroyForcibly();
        }
    }

    /**
     * A member reported as hung that then resumes (a false suspicion: a stop shorter than it takes the manager to
     * fence, or a manager that did not act) merges back into the detector's group, and is watched again: its crash
     * afterwards is reported too.
     */
    @Test
    void aReportedMemberThatMergesBackIsWatchedAgainAndItsLaterCrashIsReported() throws Exception {
        Process member = startMember("comeback");
        try {
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(member.pid())).start().waitFor());
            assertEquals(FailureKind.HANG, firstReportAbout("comeback").kind());
            while (detector.members().stream().anyMatch(m -> m.startsWith("comeback/"))) {
                Thread.sleep(50); // excluded from the view
            }
            assertEquals(0, new ProcessBuilder("kill", "-CONT", Long.toString(member.pid())).start().waitFor());
            while (detector.members().stream().noneMatch(m -> m.startsWith("comeback/"))) {
                Thread.sleep(50); // MERGE3 brings it back within its interval
            }
            long killedEpochUs = FaultDetector.epochMicros();
            member.destroyForcibly(); // SIGKILL
            FailureReport report = firstReportAbout("comeback");
            assertEquals(FailureKind.CRASH, report.kind(), report.toString());
            assertTrue(report.detectedEpochUs() >= killedEpochUs, report.toString());
        } finally {
            member.destroyForcibly();
        }
    }

    /**
     * A replica that formed a group of its own (the detector was away, as across a partition) merges with the
     * detector's group; the detector leads the merged group, so the failure of another replica that joins later is
     * still suspected by the detector itself and reported. With JGroups' default merge order a replica could lead,
     * exclude the failed member on its own suspicion, and the detector would never report it.
     */
    @Test
    void afterAMergeTheDetectorLeadsTheGroupAndStillReportsAHang(@TempDir Path dir) throws Exception {
        int port = freePortPair();
        Process early = startMember("early", port); // no detector yet: it leads a group of one
        Process late = null;
        try (FaultDetector second = FaultDetector.start(port, "http://127.0.0.1:" + manager.getAddress().getPort(),
                100, 500, dir.resolve("detector.log"))) {
            while (second.members().stream().noneMatch(m -> m.startsWith("early/"))) {
                Thread.sleep(50); // MERGE3 finds the two groups within its interval
            }
            assertEquals(HeartbeatStack.DETECTOR, second.members().get(0), "the merged group: " + second.members());
            late = startMember("late", port);
            assertEquals(HeartbeatStack.DETECTOR, second.members().get(0), "after a join: " + second.members());
            long stoppedEpochUs = FaultDetector.epochMicros();
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(late.pid())).start().waitFor());
            FailureReport report = firstReportAbout("late");
            assertTrue(report.detectedEpochUs() >= stoppedEpochUs, report.toString());
            assertEquals(FailureKind.HANG, report.kind());
        } finally {
            early.destroyForcibly();
            if (late != null) {
                late.destroyForcibly();
            }
        }
    }

    /**
     * A lab of several managers runs one detector per manager: the first coordinates the group, the others stand by.
     * The first is killed (SIGKILL) and, once it is gone, a member crashes: the standby reports the crash, and
     * coordinates the group from then on.
     */
    @Test
    void aStandbyDetectorReportsACrashOnceTheFirstDetectorIsKilled(@TempDir Path dir) throws Exception {
        standbyReportsTheCrash(dir, "afterthefirst", true);
    }

    /** The double fault: the first detector and a member are killed at the same moment; the standby reports it. */
    @Test
    void aStandbyDetectorReportsACrashWhenTheFirstDetectorIsKilledWithIt(@TempDir Path dir) throws Exception {
        standbyReportsTheCrash(dir, "withthefirst", false);
    }

    private static void standbyReportsTheCrash(Path dir, String name, boolean firstGoneBefore) throws Exception {
        String ports = freePortPair() + "," + freePortPair();
        int firstPort = Integer.parseInt(ports.split(",")[0]);
        int standbyPort = Integer.parseInt(ports.split(",")[1]);
        Process first = startProcess("fault-detector ready", FaultDetector.class.getName(), "--name",
                HeartbeatStack.detectorName(1), "--port", Integer.toString(firstPort), "--detectors", localHosts(ports),
                "--rm-url", managerUrl(), "--heartbeat-ms", "100", "--timeout-ms", "500",
                "--log", dir.resolve("first.log").toString());
        Process member = null;
        try (FaultDetector standby = FaultDetector.start(HeartbeatStack.detectorName(2), "127.0.0.1", standbyPort,
                localHosts(ports), managerUrl(), 100, 500, dir.resolve("standby.log"), false)) {
            member = startMember(name, ports);
            while (standby.members().size() < 3) {
                Thread.sleep(50); // the member's join reaches the standby's view
            }
            assertEquals(List.of("fd", "fd2"), standby.members().subList(0, 2), standby.members().toString());
            long killedEpochUs = FaultDetector.epochMicros();
            first.destroyForcibly(); // SIGKILL
            if (firstGoneBefore) {
                first.onExit().get();
                killedEpochUs = FaultDetector.epochMicros();
            }
            member.destroyForcibly();
            FailureReport report = firstReportAbout(name);
            assertEquals(FailureKind.CRASH, report.kind(), report.toString());
            assertEquals(member.pid(), report.pid());
            assertTrue(report.detectedEpochUs() >= killedEpochUs, report.toString());
            assertTrue(Files.readString(dir.resolve("standby.log")).contains(" failure replica=" + name + " "),
                    "the standby reported it");
            while (!standby.members().equals(List.of("fd2"))) {
                Thread.sleep(50); // both excluded: the standby coordinates a group of its own
            }
        } finally {
            first.destroyForcibly();
            if (member != null) {
                member.destroyForcibly();
            }
        }
    }

    /** {@code 127.0.0.1[port]} for each of {@code ports}, comma-separated: the group's initial hosts. */
    static String localHosts(String ports) {
        return Arrays.stream(ports.split(",")).map(p -> "127.0.0.1[" + p + "]").collect(Collectors.joining(","));
    }

    private static String managerUrl() {
        return "http://127.0.0.1:" + manager.getAddress().getPort();
    }

    /** The first report about {@code replica}, waiting for it. */
    private static FailureReport firstReportAbout(String replica) throws InterruptedException {
        return reportsAbout(replica).take();
    }

    private static BlockingQueue<FailureReport> reportsAbout(String replica) {
        return REPORTS.computeIfAbsent(replica, r -> new LinkedBlockingQueue<>());
    }


    private static Map<String, String> form(String body) {
        Map<String, String> form = new HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return form;
    }

    private static Process startMember(String name) throws Exception {
        return startMember(name, detectorPort);
    }

    /** A member process that joins the group of the detectors at {@code detectors} (or, with none there, its own). */
    private static Process startMember(String name, int detector) throws Exception {
        return startMember(name, Integer.toString(detector));
    }

    private static Process startMember(String name, String detectors) throws Exception {
        return startProcess("joined", HeartbeatMemberProcess.class.getName(), Integer.toString(freePortPair()),
                detectors, name);
    }

    /** A JVM of this test's class path running {@code mainClass}, once it printed the line {@code ready}. */
    private static Process startProcess(String ready, String mainClass, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Djava.net.preferIPv4Stack=true", "-D" + MERGE_MIN + "=500ms", "-D" + MERGE_MAX + "=1s",
                "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.equals(ready)) {
            // JGroups start-up chatter
        }
        assertEquals(ready, line, mainClass + " did not start");
        Thread drain = new Thread(() -> {
            try {
                out.transferTo(Writer.nullWriter());
            } catch (IOException e) {
                // the process died; nothing more to read
            }
        });
        drain.setDaemon(true);
        drain.start();
        return p;
    }

    /**
     * Two adjacent free ports below the ephemeral range, where no outgoing connection can take them first; never the
     * same pair twice in this JVM (the tests run at once, and a pair is bound only once its process starts).
     */
    private static synchronized int freePortPair() throws Exception {
        int start = new Random().nextInt(1000);
        for (int i = 0; i < 1000; i++) {
            int p = 30_000 + 2 * ((start + i) % 1000);
            if (HANDED_OUT.contains(p)) {
                continue;
            }
            try (ServerSocket a = new ServerSocket(p, 1, InetAddress.getLoopbackAddress());
                    ServerSocket b = new ServerSocket(p + 1, 1, InetAddress.getLoopbackAddress())) {
                HANDED_OUT.add(p);
                return p;
            } catch (IOException taken) {
                // try the next pair
            }
        }
        throw new IllegalStateException("no free port pair between 30000 and 32000");
    }

    private static final Set<Integer> HANDED_OUT = new HashSet<>();
}
