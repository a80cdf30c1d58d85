package org.ftlab.fd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Fault Detector against real member processes and real signals: a SIGKILLed member is reported as a crash, a
 * SIGSTOPped one as a hang, and a member that merely joins is not reported at all. Reports go to a stand-in for the
 * Replication Manager's {@code /failure} endpoint.
 */
class FaultDetectorTest {
    private static final BlockingQueue<String> REPORTS = new LinkedBlockingQueue<>();
    private static HttpServer manager;
    private static FaultDetector detector;
    private static int detectorPort;

    @BeforeAll
    static void startDetector(@TempDir Path dir) throws Exception {
        manager = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        manager.createContext("/failure", ex -> {
            REPORTS.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(200, -1);
            ex.close();
        });
        manager.start();
        detectorPort = freePortPair();
        detector = FaultDetector.start(detectorPort, "http://127.0.0.1:" + manager.getAddress().getPort(), 100, 500,
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
            assertNull(REPORTS.poll(2, TimeUnit.SECONDS), "a member that joins is not a failure");
            member.destroyForcibly(); // SIGKILL
            String report = REPORTS.poll(5, TimeUnit.SECONDS);
            assertNotNull(report, "the crash was reported");
            assertTrue(report.contains("replica=crashme") && report.contains("pid=" + member.pid()), report);
            assertTrue(report.contains("kind=crash"), report);
        } finally {
            member.destroyForcibly();
        }
    }

    @Test
    void stoppedMemberIsReportedAsAHang() throws Exception {
        Process member = startMember("hangme");
        try {
            assertNull(REPORTS.poll(1, TimeUnit.SECONDS));
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(member.pid())).start().waitFor());
            String report = REPORTS.poll(5, TimeUnit.SECONDS);
            assertNotNull(report, "the hang was reported");
            assertTrue(report.contains("replica=hangme") && report.contains("kind=hang"), report);
        } finally {
            member.destroyForcibly();
        }
    }

    private static Process startMember(String name) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.net.preferIPv4Stack=true", "-cp", System.getProperty("java.class.path"),
                HeartbeatMemberProcess.class.getName(), Integer.toString(freePortPair()),
                Integer.toString(detectorPort), name).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.equals("joined")) {
            // JGroups start-up chatter
        }
        assertEquals("joined", line, "member process did not join");
        Thread drain = new Thread(() -> {
            try {
                out.transferTo(java.io.Writer.nullWriter());
            } catch (java.io.IOException e) {
                // the member died; nothing more to read
            }
        });
        drain.setDaemon(true);
        drain.start();
        return p;
    }

    /** Two adjacent free ports below the ephemeral range, where no outgoing connection can take them first. */
    private static int freePortPair() throws Exception {
        int start = new java.util.Random().nextInt(1000);
        for (int i = 0; i < 1000; i++) {
            int p = 30_000 + 2 * ((start + i) % 1000);
            try (ServerSocket a = new ServerSocket(p, 1, InetAddress.getLoopbackAddress());
                    ServerSocket b = new ServerSocket(p + 1, 1, InetAddress.getLoopbackAddress())) {
                return p;
            } catch (java.io.IOException taken) {
                // try the next pair
            }
        }
        throw new IllegalStateException("no free port pair between 30000 and 32000");
    }
}
