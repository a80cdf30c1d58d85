package org.ftlab.rm.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.ftlab.os.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Three members on this machine's loopback keep a list of strings with jgroups-raft. */
@Execution(ExecutionMode.CONCURRENT) // each test runs a group of its own; most of it is waiting for JGroups
class RaftStateTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** The test's commands: JSON reads them by name. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME)
    @JsonSubTypes(@JsonSubTypes.Type(value = Append.class, name = "append"))
    sealed interface ListCommand<R> extends Command<List<String>, R> permits Append {
    }

    /** Appends an item; answers the list's new size. */
    record Append(String item) implements ListCommand<Integer> {
        @Override
        public Integer applyTo(List<String> state) {
            state.add(item);
            return state.size();
        }

        @Override
        public Class<Integer> resultType() {
            return Integer.class;
        }
    }

    private static final StateCodec<List<String>> CODEC = new StateCodec<>() {
        @Override
        public byte[] write(List<String> state) throws IOException {
            return JSON.writeValueAsBytes(state);
        }

        @Override
        public List<String> read(byte[] bytes) throws IOException {
            return new ArrayList<>(JSON.readValue(bytes, new TypeReference<List<String>>() {
            }));
        }
    };

    @TempDir
    Path dir;
    private List<RaftState.Member> members;
    private final List<RaftState<List<String>>> running = new ArrayList<>();

    @BeforeEach
    void threeMembers() throws Exception {
        members = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            members.add(new RaftState.Member("m" + i, "127.0.0.1", FreePorts.findFreePortPair()));
        }
        for (RaftState.Member m : members) {
            running.add(join(m.id()));
        }
    }

    @AfterEach
    void closeAll() {
        running.forEach(RaftState::close);
    }

    private RaftState<List<String>> join(String id) throws Exception {
        RaftState.Settings s = new RaftState.Settings(id, members, dir.resolve(id), Duration.ofMillis(100),
                Duration.ofMillis(500), Duration.ofMillis(150), Duration.ofSeconds(1));
        return RaftState.join(s, new ArrayList<>(), ListCommand.class, CODEC,
                "raft-state-test");
    }

    /** Waits until {@code condition} holds; fails after {@link #WAIT}. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within " + WAIT.toSeconds() + " s: " + what);
            Thread.sleep(20);
        }
    }

    private RaftState<List<String>> leader() throws InterruptedException {
        await("a leader", () -> running.stream().filter(RaftState::leads).count() == 1);
        return running.stream().filter(RaftState::leads).findFirst().orElseThrow();
    }

    @Test
    void aFollowerCannotChangeTheStateAndNamesTheLeader() throws Exception {
        RaftState<List<String>> leader = leader();
        RaftState<List<String>> follower = running.stream().filter(m -> !m.leads()).findFirst().orElseThrow();
        NotLeaderException e = assertThrows(NotLeaderException.class, () -> follower.apply(new Append("x")));
        assertEquals(leader.leader(), e.leader());
        assertEquals(List.of(), leader.read(List::copyOf), "nothing was applied");
    }

    @Test
    void whenTheLeaderGoesTheOthersElectANewOneInAHigherTermThatHasEveryCommittedCommand() throws Exception {
        RaftState<List<String>> old = leader();
        long term = old.term();
        old.apply(new Append("before"));
        old.close();
        running.remove(old);
        RaftState<List<String>> successor = leader();
        assertNotEquals(old.leader(), successor.leader());
        assertTrue(successor.term() > term, "a new term: " + successor.term() + " after " + term);
        assertEquals(2, successor.apply(new Append("after")), "its first command comes after the old leader's");
        assertEquals(List.of("before", "after"), successor.read(List::copyOf));
    }

    @Test
    void aMemberLeftAloneCannotChangeTheState() throws Exception {
        RaftState<List<String>> leader = leader();
        leader.apply(new Append("agreed"));
        RaftState<List<String>> alone = running.stream().filter(RaftState::leads).findFirst().orElseThrow();
        for (RaftState<List<String>> m : List.copyOf(running)) {
            if (m != alone) {
                m.close();
                running.remove(m);
            }
        }
        assertThrows(NotLeaderException.class, () -> alone.apply(new Append("alone")));
        await("the lone member steps down", () -> !alone.leads());
        assertEquals(List.of("agreed"), alone.read(List::copyOf));
    }

    @Test
    void aMemberThatRestartsFromItsLogCatchesUp() throws Exception {
        RaftState<List<String>> leader = leader();
        RaftState<List<String>> follower = running.stream().filter(m -> !m.leads()).findFirst().orElseThrow();
        String id = follower.member();
        leader.apply(new Append("1"));
        follower.close();
        running.remove(follower);
        leader.apply(new Append("2"));
        RaftState<List<String>> back = join(id);
        running.add(back);
        assertFalse(back.leads(), "the leader keeps the lead");
        await("the restarted member has both commands", () -> back.read(List::copyOf).equals(List.of("1", "2")));
        assertTrue(Files.isDirectory(dir.resolve(id)), "its log is kept in its directory");
    }
}
