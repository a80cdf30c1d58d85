package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.harness.failover.InvocationTimeout;
import org.ftlab.harness.failover.Outcome;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.ReplicaStatus;
import org.ftlab.faults.ProcessFaults;
import org.junit.jupiter.api.Test;

/**
 * A client's suspicion of a replica that is only slow: a gray failure (the primary throttled to 0.1% of a CPU by a
 * cgroup-v1 quota, running all the while) that lasts longer than any invocation timeout the client can have, in a lab
 * whose Fault Detector waits 5 s for a heartbeat, so that only the client suspects it.
 */
class FalseSuspicionIT {
    private static final long DETECTOR_TIMEOUT_MS = 5_000;

    @Test
    void aFalseSuspicionCostsAFailOverAndNothingElse() throws Exception {
        Path runDir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "false-suspicion-");
        try (ManagedLab lab = ManagedLab.start(new ManagedLab.Options(runDir, SharedLab.serverHome(), 2, 0, null, 100,
                DETECTOR_TIMEOUT_MS, true))) {
            ManagerStatus before = lab.manager().status();
            String primary = before.primary();
            long epoch = before.epoch();
            long pid = -1;
            for (ReplicaStatus r : before.replicas()) {
                if (r.name().equals(primary)) {
                    pid = r.pid();
                }
            }
            ClientLoop c = new ClientLoop(lab, "preconnected", "fs-" + Long.toString(System.nanoTime(), 36), 1000, 2)
                    .start();
            while (c.done.get() < 200 && c.failure == null && c.thread.isAlive()) {
                Thread.sleep(10);
            }
            assertNull(c.failure, () -> "failed before the throttle: " + c.failure);
            // 1 ms of CPU per second, for longer than the timeout's ceiling: the request in flight on the primary
            // cannot answer in time.
            Undo throttle = ProcessFaults.cpuQuota("ftlab-it-" + pid,
                    List.of(pid), 0.1);
            try {
                Thread.sleep(InvocationTimeout.CEILING_MILLIS + 1_500);
            } finally {
                throttle.run();
            }
            c.thread.join(); // the client gives up on a request after its own bound
            assertNull(c.failure, () -> "the client failed: " + c.failure);
            assertEquals(c.posts, c.outcomes().size(), "every request completed");

            assertTrue(c.outcomes().stream().anyMatch(Outcome::faulty), "the client failed over");
            assertTrue(c.falseSuspicions.get() >= 1, "the manager declined the client's suspicion");
            ManagerStatus after = lab.manager().status();
            assertEquals(primary, after.primary(), "the primary stays");
            assertEquals(epoch, after.epoch(), "the view never changed");
            assertEquals(0, after.failures().size(), "no failure was recorded");
            long throttled = pid;
            assertTrue(ProcessHandle.of(throttled).map(ProcessHandle::isAlive).orElse(false),
                    "the suspected replica was not fenced");
            List<Outcome<?>> outcomes = c.outcomes();
            assertEquals(primary, outcomes.get(outcomes.size() - 1).servedBy(), "the client went back to the primary");
            FailoverIT.auditExactlyOnce(lab, List.of(c));
        }
    }
}
