package org.ftlab.rm.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.fd.ProcessState;
import org.ftlab.os.OrphanGuard;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * A manager that leads after another takes over the replicas the other launched, by the launch records the view
 * keeps: signals, state and the kill reach a process this JVM did not start.
 */
@Execution(ExecutionMode.CONCURRENT) // most of it is waiting for the exit of a process this JVM did not start
class ReplicaAdoptionTest {
    @TempDir
    Path dir;

    /** A process another process started (a shell that has exited since): not a child of this JVM. */
    private static long startedElsewhere() throws Exception {
        Process shell = new ProcessBuilder("sh", "-c", "sleep 120 >/dev/null 2>&1 & echo $!").start();
        String pid = new String(shell.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
        assertTrue(shell.waitFor(10, TimeUnit.SECONDS));
        return Long.parseLong(pid);
    }

    @Test
    void anAdoptedReplicaIsSignalledAndKilledByItsPidAndItsExitIsSeen() throws Exception {
        long pid = startedElsewhere();
        try {
            Replica.Launch launch = new Replica.Launch("r7", null, "127.0.0.1", pid, 4200, dir.toString(),
                    System.currentTimeMillis() - 5_000, false, true);
            Replica r = Replica.adopt(launch, OrphanGuard.NONE);
            assertTrue(r.isAlive());
            assertEquals(launch, r.launch(), "adopted as it was recorded");
            assertTrue(r.startupTime() != null, "up before this manager led");

            r.signal("STOP");
            assertEquals(ProcessState.STOPPED, awaitState(r, ProcessState.STOPPED));
            r.signal("CONT");
            long killedUs = MicroClock.nowEpochMicros();
            r.kill();
            assertTrue(r.awaitExit(Duration.ofSeconds(10)), "its exit is seen, though it is not a child here");
            assertFalse(r.isAlive());
            assertTrue(r.exitedEpochUs().orElseThrow() >= killedUs, "and dated after its kill");
            r.release();
        } finally {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void aReplicaGoneBeforeItsAdoptionIsDeadFromTheStart() throws Exception {
        long pid = startedElsewhere();
        ProcessHandle gone = ProcessHandle.of(pid).orElseThrow();
        gone.destroyForcibly();
        gone.onExit().get(10, TimeUnit.SECONDS);
        Replica r = Replica.adopt(new Replica.Launch("r8", null, "127.0.0.1", pid, 4210, dir.toString(), 1, false,
                true), OrphanGuard.NONE);
        assertFalse(r.isAlive());
        assertTrue(r.exitedEpochUs().isPresent());
        r.stop(); // nothing to stop: no error
    }

    private static ProcessState awaitState(Replica r, ProcessState wanted) throws InterruptedException {
        for (int i = 0; i < 200 && r.state() != wanted; i++) {
            Thread.sleep(10);
        }
        return r.state();
    }
}
