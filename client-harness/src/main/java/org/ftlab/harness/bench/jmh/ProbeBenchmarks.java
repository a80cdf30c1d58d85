package org.ftlab.harness.bench.jmh;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ServerProbes;
import org.ftlab.auction.api.ThreadSchedstat;
import org.ftlab.harness.probe.ProbeTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the probes cost per request, in nanoseconds: the client's clock and run-queue readings and its row in the
 * preallocated {@link ProbeTable}; the replica's clock and scheduler readings and the {@link ServerProbes} it returns;
 * and the two readings of the database thread a transaction's connection is served by. Compared with the
 * mean latency of a request (hundreds of microseconds), this is the probe overhead; an A/B run of the whole service
 * cannot resolve a difference this small on a shared machine.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProbeBenchmarks {
    private static final int ROWS = 1 << 16;
    private ProbeTable table;
    private Reply<String> reply;
    private long seq;

    private final long[] arrival = new long[2];
    private final long[] reply2 = new long[2];
    private ThreadSchedstat.Other other;

    @Setup
    public void setUp() throws Exception {
        // this thread's counters, read as another thread's would be (the file of a task of a process)
        long tid = Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self"))
                .getFileName().toString());
        other = ThreadSchedstat.Other.open(ProcessHandle.current().pid(), tid);
        table = new ProbeTable("jmh-client", ROWS);
        reply = new Reply<>("value", null, false, "r1", new ServerProbes(1, 2, 3, 4));
    }

    /** Per request on the client, inside its timed window: clock before, clock after, one row into the table. */
    @Benchmark
    public int clientProbes() {
        if (table.size() == ROWS) {
            table = new ProbeTable("jmh-client", ROWS); // the grid sizes its table up front; this keeps it bounded
        }
        long sent = MicroClock.nowEpochMicros();
        long received = MicroClock.nowEpochMicros();
        table.recordOk(seq++, "viewAuction", -1, sent, received, reply);
        return table.size();
    }

    /**
     * Per request on the client, outside its timed window: its thread's run-queue counter before and after, into the
     * row (costs the client's throughput, not the measured latency).
     */
    @Benchmark
    public int clientSchedstat() {
        long runQueue = ThreadSchedstat.runQueueNanos();
        table.clientRunQueue(0, ThreadSchedstat.deltaMicros(runQueue, ThreadSchedstat.runQueueNanos()));
        return table.size();
    }

    /** Per request on the replica, events off: five clock reads and the probes object carried by the reply. */
    @Benchmark
    public ServerProbes serverProbes() {
        long received = MicroClock.nowEpochMicros();
        long dbStart = MicroClock.nowEpochMicros();
        long commitStart = MicroClock.nowEpochMicros();
        long dbEnd = MicroClock.nowEpochMicros();
        return new ServerProbes(received, dbStart, commitStart, dbEnd, MicroClock.nowEpochMicros(),
                Thread.currentThread().getId(), -1, -1, -1, -1, -1);
    }

    /**
     * What events on ({@code --observe on}) add per request on the replica: its thread's counters at arrival and at
     * the reply (one read each).
     */
    @Benchmark
    public long serverSchedstat() {
        ThreadSchedstat.read(arrival);
        ThreadSchedstat.read(reply2);
        return ThreadSchedstat.deltaMicros(arrival[1], reply2[1]);
    }

    /**
     * What events on add per transaction with the embedded database: the counters of the database thread serving its
     * connection, kept open, read at its start and at its end.
     */
    @Benchmark
    public long databaseThreadReadings() {
        long[] before = other.both();
        long[] after = other.both();
        return after[1] - before[1];
    }
}
