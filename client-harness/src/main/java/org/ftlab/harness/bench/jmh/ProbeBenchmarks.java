package org.ftlab.harness.bench.jmh;

import java.util.concurrent.TimeUnit;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.auction.api.Reply;
import org.ftlab.auction.api.ServerProbes;
import org.ftlab.harness.probe.ProbeTable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the probes cost per request, in nanoseconds: the client's two clock reads and its row in the preallocated
 * {@link ProbeTable}, and the replica's four clock reads and the {@link ServerProbes} it returns. Compared with the
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

    @Setup
    public void setUp() {
        table = new ProbeTable("jmh-client", ROWS);
        reply = new Reply<>("value", null, false, "r1", new ServerProbes(1, 2, 3, 4));
    }

    /** Per request on the client: clock before, clock after, one row into the table. */
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

    /** Per request on the replica: four clock reads and the probes object carried by the reply. */
    @Benchmark
    public ServerProbes serverProbes() {
        long received = MicroClock.nowEpochMicros();
        long dbStart = MicroClock.nowEpochMicros();
        long dbEnd = MicroClock.nowEpochMicros();
        return new ServerProbes(received, dbStart, dbEnd, MicroClock.nowEpochMicros());
    }
}
