package org.ftlab.rm.consensus;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.NAKACK4;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UNICAST4;
import org.jgroups.protocols.VERIFY_SUSPECT;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.raft.ELECTION;
import org.jgroups.protocols.raft.FileBasedLog;
import org.jgroups.protocols.raft.NO_DUPES;
import org.jgroups.protocols.raft.RAFT;
import org.jgroups.raft.RaftHandle;
import org.jgroups.raft.StateMachine;

/**
 * A state kept by a group of members with Raft, as jgroups-raft implements it (JGroups' own Raft library: leader
 * election, the replicated log, snapshots): the leader appends each command to the log, a majority stores it, then
 * every member applies it to its copy in log order. A member that lost the lead, or sits in a minority, cannot get a
 * command committed, so it cannot change the state.
 *
 * <p>Timing. jgroups-raft elects on JGroups view changes: a crashed member is seen by {@code FD_SOCK2} (its sockets
 * close, milliseconds), a hung one by {@code FD_ALL3} after {@link Settings#suspectAfter} without a heartbeat (sent
 * every {@link Settings#heartbeatEvery}), confirmed by {@code VERIFY_SUSPECT}; the new view's coordinator then runs one
 * vote (jgroups-raft's {@code ELECTION}: the member with the longest log wins).
 *
 * <p>A follower's command is refused, not forwarded (the stack has no {@code REDIRECT}): only the leader acts, and it
 * acts on what it applied. A new leader's copy has every command a majority stored only once it has committed one of
 * its own term (Raft's rule for a leader's first commit): it leads by applying a command first.
 *
 * <p>The log and the member's vote are kept in {@link Settings#logDir} ({@code FileBasedLog}, written with
 * {@code fsync}): a member that restarts remembers its term and vote, as Raft requires.
 */
public final class RaftState<S> implements ReplicatedState<S>, StateMachine {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One member's settings.
     *
     * @param member this member's id (its name in the group, e.g. {@code m1})
     * @param members every member's id and address, this one's included, in the same order on every member
     * @param logDir where this member keeps its log and vote
     * @param heartbeatEvery how often members heartbeat each other
     * @param suspectAfter a member not heard of for this long is suspected (then checked for {@code verifyFor})
     * @param verifyFor how long a suspicion is checked before the member is excluded
     * @param commitTimeout how long {@link #apply} waits for a majority
     */
    public record Settings(String member, List<Member> members, Path logDir, Duration heartbeatEvery,
            Duration suspectAfter, Duration verifyFor, Duration commitTimeout) {
        public Settings {
            if (members.stream().noneMatch(m -> m.id().equals(member))) {
                throw new IllegalArgumentException("member " + member + " is not one of " + members);
            }
            members = List.copyOf(members);
        }

        Member self() {
            return members.stream().filter(m -> m.id().equals(member)).findFirst().orElseThrow();
        }
    }

    /** How often a member looks for other views of the group to merge with, ms (between min and max), and checks. */
    static final long MERGE_MIN_MS = 300;
    static final long MERGE_MAX_MS = 1000;
    static final long MERGE_CHECK_MS = 1500;

    /** A member of the group: its id and where it listens. */
    public record Member(String id, String host, int port) {
    }

    private final Settings settings;
    private final Class<?> commandType;
    private final StateCodec<S> codec;
    private final JChannel channel;
    private final RaftHandle raft;
    private S state;

    private RaftState(Settings settings, S initial, Class<?> commandType, StateCodec<S> codec,
            JChannel channel) {
        this.settings = settings;
        this.state = initial;
        this.commandType = commandType;
        this.codec = codec;
        this.channel = channel;
        this.raft = new RaftHandle(channel, this);
    }

    /**
     * Joins the group as {@code settings.member()}, its copy of the state {@code initial} until the log (or a leader's
     * snapshot) says otherwise. Returns once connected; a leader is elected once a majority of members has joined.
     *
     * @param commandType the commands' common type, every command of {@code S} (a sealed interface whose records JSON
     *     reads by name)
     */
    public static <S> RaftState<S> join(Settings settings, S initial, Class<?> commandType,
            StateCodec<S> codec, String group) throws Exception {
        Files.createDirectories(settings.logDir());
        Member self = settings.self();
        InetAddress bind = InetAddress.getByName(self.host());
        TCP tcp = new TCP();
        tcp.setBindAddress(bind);
        tcp.setBindPort(self.port());
        tcp.setPortRange(0);
        // a member cut off (its packets dropped: a partition) must not stall the sends to the others: a send to it
        // queues instead of blocking the sender, and a connection to it is given up after 300 ms
        tcp.nonBlockingSends(true);
        tcp.setSockConnTimeout(300);
        TCPPING discovery = new TCPPING();
        discovery.setInitialHosts(settings.members().stream()
                .map(m -> new InetSocketAddress(m.host(), m.port())).toList());
        discovery.setPortRange(0);
        FD_ALL3 heartbeats = new FD_ALL3();
        heartbeats.setInterval(settings.heartbeatEvery().toMillis());
        heartbeats.setTimeout(settings.suspectAfter().toMillis());
        VERIFY_SUSPECT verify = new VERIFY_SUSPECT();
        verify.setTimeout(settings.verifyFor().toMillis());
        FD_SOCK2 sockets = new FD_SOCK2();
        sockets.setOffset(1);
        sockets.setPortRange(0);
        sockets.setBindAddress(bind);
        GMS gms = new GMS();
        gms.setJoinTimeout(1000);
        gms.printLocalAddress(false);
        RAFT log = new RAFT().raftId(settings.member()).members(settings.members().stream().map(Member::id).toList())
                .logClass(FileBasedLog.class.getName()).logDir(settings.logDir().toString()).logUseFsync(true);
        // Split views merge within a couple of seconds (JGroups' default: up to tens of seconds): a leader that was
        // stopped and wakes holds a view with members that excluded it, and learns of the higher term only when
        // the views merge; until then it believes it leads (though it can commit nothing)
        MERGE3 merge = new MERGE3().setMinInterval(MERGE_MIN_MS).setMaxInterval(MERGE_MAX_MS)
                .setCheckInterval(MERGE_CHECK_MS);
        JChannel channel = new JChannel(tcp, discovery, merge, sockets, heartbeats, verify, new NAKACK4(),
                new UNICAST4(), new NO_DUPES(), gms, new FRAG4(), new ELECTION(), log);
        channel.name(settings.member());
        RaftState<S> member = new RaftState<>(settings, initial, commandType, codec, channel);
        try {
            channel.connect(group);
        } catch (Exception e) {
            channel.close();
            throw e;
        }
        return member;
    }

    @Override
    public <R> R apply(Command<S, R> command) throws NotLeaderException {
        byte[] request;
        try {
            request = JSON.writerFor(commandType).writeValueAsBytes(command);
        } catch (IOException e) {
            throw new IllegalArgumentException("command " + command + " cannot be written: " + e.getMessage(), e);
        }
        byte[] response;
        try {
            response = raft.set(request, 0, request.length, settings.commitTimeout().toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            throw new NotLeaderException(settings.member() + " does not lead", leader(), e);
        } catch (TimeoutException e) {
            throw new NotLeaderException(settings.member() + " got no majority for its command within "
                    + settings.commitTimeout().toMillis() + " ms", leader(), e);
        } catch (ExecutionException e) {
            throw new NotLeaderException(settings.member() + "'s command was not committed: "
                    + e.getCause().getMessage(), leader(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NotLeaderException(settings.member() + " was interrupted waiting for a majority", leader(), e);
        } catch (Exception e) {
            throw new NotLeaderException(settings.member() + "'s command failed: " + e.getMessage(), leader(), e);
        }
        try {
            return JSON.readValue(response, command.resultType());
        } catch (IOException e) {
            throw new IllegalStateException("the answer to " + command + " cannot be read: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized <R> R read(Function<S, R> query) {
        return query.apply(state);
    }

    @Override
    public boolean leads() {
        return raft.isLeader();
    }

    @Override
    public long term() {
        return raft.currentTerm();
    }

    @Override
    public String member() {
        return settings.member();
    }

    @Override
    public List<String> members() {
        return settings.members().stream().map(Member::id).toList();
    }

    @Override
    public String leader() {
        Address a = raft.leader();
        return a == null ? null : a.toString();
    }

    /** Calls {@code listener} with this member's role whenever it changes (on JGroups' threads: return quickly). */
    public void onRoleChange(RAFT.RoleChange listener) {
        raft.addRoleListener(listener);
    }

    /** The index of the last command this member applied. */
    public long commitIndex() {
        return raft.commitIndex();
    }

    // ---- StateMachine: called by jgroups-raft, in log order --------------------------------------------------------

    @Override
    public byte[] apply(byte[] data, int offset, int length, boolean serializeResponse) throws Exception {
        Command<S, ?> command = JSON.readerFor(commandType).readValue(data, offset, length);
        Object result;
        synchronized (this) {
            result = command.applyTo(state);
        }
        return serializeResponse ? JSON.writeValueAsBytes(result) : null;
    }

    @Override
    public void readContentFrom(DataInput in) throws Exception {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        S read = codec.read(bytes);
        synchronized (this) {
            state = read;
        }
    }

    @Override
    public void writeContentTo(DataOutput out) throws Exception {
        byte[] bytes;
        synchronized (this) {
            bytes = codec.write(state);
        }
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    @Override
    public void close() {
        channel.close();
    }
}
