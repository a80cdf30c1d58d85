package org.ftlab.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.ftlab.fd.FailureKind;
import org.ftlab.os.FreePorts;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerGroup;
import org.ftlab.rm.api.TierRecovery;
import org.ftlab.rm.consensus.RaftState;
import org.ftlab.rm.replica.Replica;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The view's decisions as commands: written, read and applied elsewhere, they leave an equal view. */
@Execution(ExecutionMode.CONCURRENT) // each test runs a group of its own; most of it is waiting for JGroups
class ReplicatedViewTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A lab's life: boot, a spare, a fault injected and its replica failed, a promotion, the degree lowered. */
    private static List<ViewCommand<?>> history() {
        Map<String, Double> shares = new HashMap<>();
        shares.put("r2", 0.97);
        shares.put("r3", null);
        InjectedFault hang = new InjectedFault("f1", new FaultSpec(FaultKind.parse("hang"),
                FaultTarget.of(FaultTarget.Node.PRIMARY), 5_000, 0), "r1", 4242, 40, 0, InjectedFault.Repair.NONE);
        return List.of(new ViewCommand.Lead("m1", 1, 5), new ViewCommand.Launching(),
                new ViewCommand.Launched(new Replica.Launch("r1", "ftlab-r1", "10.77.0.11", 4242, 100,
                        "/runs/x/replicas/r1", 9, false, true)),
                new ViewCommand.Join("r1", 10),
                new ViewCommand.Launching(),
                new ViewCommand.Join("r2", 20), new ViewCommand.Launching(), new ViewCommand.OfferSpare("r3", 30),
                new ViewCommand.NextFaultId(), new ViewCommand.Injected(hang), new ViewCommand.Made("f1", 41),
                new ViewCommand.Fail("r1", FailureKind.HANG, FailureRecord.Source.FAULT_DETECTOR, 50, 51, shares),
                new ViewCommand.TierRecovered("f1", new TierRecovery("r2", 52, 60, 7, 3, 2, null)),
                new ViewCommand.Repaired("f1", 70, InjectedFault.Repair.UNDONE), new ViewCommand.Launching(),
                new ViewCommand.LaunchFailed("r4"), new ViewCommand.Lead("m2", 2, 75), new ViewCommand.SetDegree(1, 80));
    }

    @Test
    void commandsWrittenAndReadBackDecideAsTheOriginalsDid() throws Exception {
        ViewKeeper here = new ViewKeeper(2);
        ViewKeeper there = new ViewKeeper(2);
        for (ViewCommand<?> c : history()) {
            Object answer = c.applyTo(here);
            byte[] wire = JSON.writerFor(ViewCommand.class).writeValueAsBytes(c);
            ViewCommand<?> read = JSON.readerFor(ViewCommand.class).readValue(wire);
            assertEquals(c, read, "the command survives JSON");
            Object answered = read.applyTo(there);
            assertEquals(answer, answered == null ? null : JSON.readValue(JSON.writeValueAsBytes(answered),
                    c.resultType()), "the same answer for " + c);
        }
        assertEquals(here.state(), there.state());
        assertEquals(List.of("r2"), there.servingNames(), "r2 promoted, the degree lowered to 1");
        assertEquals(List.of("r3"), there.spares(), "the spare that joined went back to the pool");
        assertEquals(0.97, there.failures().get(0).promotedTopTierShare());
        assertEquals(4242, there.launchOf("r1").pid(), "where r1 runs, for a manager that leads after its launcher");
    }

    @Test
    void aSnapshotRestoresTheWholeView() throws Exception {
        ViewKeeper v = new ViewKeeper(2);
        for (ViewCommand<?> c : history()) {
            c.applyTo(v);
        }
        ViewKeeper restored = ViewCommand.CODEC.read(ViewCommand.CODEC.write(v));
        assertEquals(v.state(), restored.state());
        assertEquals(v.epoch(), restored.epoch());
        assertEquals("r5", restored.launching(), "names go on where they stopped");
    }

    @Test
    void threeManagersKeepOneViewAndTheLeadersSuccessorDecidesOnTheSameOne(@TempDir Path dir) throws Exception {
        List<RaftState.Member> members = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            members.add(new RaftState.Member("m" + i, "127.0.0.1", FreePorts.findFreePortPair()));
        }
        List<RaftState<ViewKeeper>> managers = new ArrayList<>();
        try {
            for (RaftState.Member m : members) {
                managers.add(RaftState.join(new RaftState.Settings(m.id(), members, dir.resolve(m.id()),
                        Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMillis(150), Duration.ofSeconds(3)),
                        new ViewKeeper(2), ViewCommand.class, ViewCommand.CODEC, "replicated-view-test"));
            }
            RaftState<ViewKeeper> leader = await(managers);
            List<ViewCommand<?>> applied = new ArrayList<>();
            List<ViewCommand<?>> h = history().stream().filter(c -> !(c instanceof ViewCommand.Lead)).toList();
            applied.add(new ViewCommand.Lead(leader.member(), leader.term(), 5));
            applied.addAll(h.subList(0, 11)); // up to r1's failure
            for (ViewCommand<?> c : applied) {
                leader.apply(c);
            }
            leader.close();
            managers.remove(leader);
            RaftState<ViewKeeper> successor = await(managers);
            // a new leader's first command: its leadership; from here on its copy has every earlier command
            ViewCommand.Lead lead = new ViewCommand.Lead(successor.member(), successor.term(), 75);
            successor.apply(lead);
            applied.add(lead);
            assertEquals(List.of("r2", "r3"), successor.read(ViewKeeper::servingNames), "r1's failure is known");
            assertEquals(List.of(leader.member(), successor.member()), successor.read(ViewKeeper::leaderships).stream()
                    .map(ManagerGroup.Leadership::member).toList(), "both leaderships are in the view's history");
            for (ViewCommand<?> c : h.subList(11, h.size())) {
                successor.apply(c);
                applied.add(c);
            }
            ViewKeeper alone = new ViewKeeper(2);
            applied.forEach(c -> c.applyTo(alone));
            for (RaftState<ViewKeeper> m : managers) {
                waitFor(m.member() + " has the whole history", () -> m.read(ViewKeeper::state).equals(alone.state()));
            }
        } finally {
            managers.forEach(RaftState::close);
        }
    }

    private static RaftState<ViewKeeper> await(List<RaftState<ViewKeeper>> managers) throws InterruptedException {
        waitFor("one leader", () -> managers.stream().filter(RaftState::leads).count() == 1);
        return managers.stream().filter(RaftState::leads).findFirst().orElseThrow();
    }

    private static void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within 20 s: " + what);
            Thread.sleep(20);
        }
    }
}
