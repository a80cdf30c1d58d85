package org.ftlab.os;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM records with ftlab's settings from its start; a forced collection in it is in the file cut from it, and
 * in what a killed child left.
 */
class FlightRecordingTest {
    @TempDir
    Path dir;

    /** A child that idles until its standard input closes. */
    public static final class Idle {
        public static void main(String[] args) throws IOException {
            System.out.println("ready");
            System.out.flush();
            System.in.read();
        }
    }

    @Test
    void aCollectionForcedInARecordingChildIsInTheFileCutFromItAndNothingIsLeftOfTheAttachment() throws Exception {
        Path settings = FlightRecording.settingsFile(dir);
        List<String> cmd = ChildJvm.command(Idle.class.getName(),
                FlightRecording.jvmOptions(settings, dir.resolve("repo")).toArray(String[]::new));
        long since = System.currentTimeMillis() * 1000;
        Path console = dir.resolve("console.log");
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        try {
            assertTrue(ProcessTools.awaitOutput(child, console, Duration.ofSeconds(60),
                    out -> out.contains("ready") ? true : null) != null, "the child started");
            Jcmd.run(child.pid(), "GC.run");
            Path file = dir.resolve("child-seg1.jfr");
            FlightRecording.dump(child.pid(), file, since);
            assertFalse(Files.exists(dir.resolve("child-seg1.jfr.tmp")), "written under a temporary name");
            List<String> collections = new ArrayList<>();
            try (RecordingFile in = new RecordingFile(file)) {
                while (in.hasMoreEvents()) {
                    RecordedEvent e = in.readEvent();
                    if (e.getEventType().getName().equals("jdk.GarbageCollection")) {
                        collections.add(e.getString("cause"));
                    }
                }
            }
            assertTrue(collections.contains("Diagnostic Command"), "the forced collection: " + collections);
        } finally {
            child.getOutputStream().close();
            child.waitFor();
            child.destroyForcibly();
        }
        Jcmd.forget(child.pid());
        assertFalse(Files.exists(Path.of("/tmp", ".java_pid" + child.pid())), "no attach socket left");
    }

    @Test
    void whatAKilledChildHadFlushedIsCollectedFromItsRepositoryIntoOneReadableFileAndNothingOlderThanAsked() throws Exception {
        Path settings = FlightRecording.settingsFile(dir);
        Path repository = dir.resolve("repo");
        List<String> cmd = ChildJvm.command(Idle.class.getName(),
                FlightRecording.jvmOptions(settings, repository).toArray(String[]::new));
        Path console = dir.resolve("console.log");
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        Path file = dir.resolve("child-seg1.jfr");
        try {
            assertTrue(ProcessTools.awaitOutput(child, console, Duration.ofSeconds(60),
                    out -> out.contains("ready") ? true : null) != null, "the child started");
            Jcmd.run(child.pid(), "GC.run");
            // the child flushes its events to the repository about once a second: wait until the collection is there
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!(FlightRecording.collect(repository, file, 0) && forcedCollectionsSoFar(file) > 0)) {
                assertTrue(System.nanoTime() < deadline, "the child flushed its forced collection within 60 s");
                Thread.sleep(200);
            }
            Files.delete(file);
        } finally {
            child.destroyForcibly(); // SIGKILL: no exit hook removes the chunks
            child.waitFor();
        }
        Jcmd.forget(child.pid());
        long afterDeathUs = TimeUnit.MILLISECONDS.toMicros(System.currentTimeMillis()) + 1_000_000;
        assertFalse(FlightRecording.collect(repository, file, afterDeathUs), "nothing written since after its death");
        assertFalse(Files.exists(file));
        assertTrue(FlightRecording.collect(repository, file, 0), "the killed child left its chunks");
        assertFalse(Files.exists(dir.resolve("child-seg1.jfr.tmp")), "written under a temporary name");
        assertTrue(forcedCollections(file) > 0, "the forced collection is in the collected file");
        assertFalse(FlightRecording.collect(dir.resolve("none"), dir.resolve("none.jfr"), 0), "no repository, no file");
        assertFalse(Files.exists(dir.resolve("none.jfr")));
    }

    /** A chunk being written may end in a half-written event: read as none yet. */
    private static int forcedCollectionsSoFar(Path file) {
        try {
            return forcedCollections(file);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static int forcedCollections(Path file) throws IOException {
        int n = 0;
        try (RecordingFile in = new RecordingFile(file)) {
            while (in.hasMoreEvents()) {
                RecordedEvent e = in.readEvent();
                if (e.getEventType().getName().equals("jdk.GarbageCollection")
                        && "Diagnostic Command".equals(e.getString("cause"))) {
                    n++;
                }
            }
        }
        return n;
    }

    @Test
    void aCommandForAJvmThatIsGoneFailsWithItsPid() {
        IOException e = assertThrows(IOException.class, () -> Jcmd.run(Integer.MAX_VALUE - 1, "GC.run"));
        assertTrue(e.getMessage().contains(Long.toString(Integer.MAX_VALUE - 1)), e.getMessage());
    }

    @Test
    void aPathWithACommaIsRefusedWithWhatToDo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlightRecording.jvmOptions(dir.resolve("a,b.jfc"), dir));
        assertTrue(e.getMessage().contains("--observe off"), e.getMessage());
        // a replica's repository alone (events off) is simply not given there: the launcher asks first
        assertFalse(FlightRecording.canHoldRepository(dir.resolve("a,b")));
        assertTrue(FlightRecording.canHoldRepository(dir.resolve("ab")));
        assertThrows(IllegalArgumentException.class, () -> FlightRecording.repositoryOption(dir.resolve("a,b")));
    }
}
