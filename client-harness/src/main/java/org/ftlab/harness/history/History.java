package org.ftlab.harness.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.ftlab.auction.api.AuctionException;

/**
 * A run's history as it happens: every invocation and completion of the clients' operations, and every fault's start,
 * in one order (Jepsen's history; {@link HistoryEvent}). Recording an event takes a lock, a counter and a
 * clock reading, nothing more: values are written to JSON only when the history is flushed, after each block, off the
 * timed path. Each flush writes the events since the last one as a part of its own,
 * {@code history/part-NNNNNN.jsonl}, in one rename ({@link HistoryFiles}): a run that is aborted or killed keeps every
 * part written, and a reader never sees half a part ({@link HistoryFiles}).
 *
 * <p>A resumed run continues its history: indexes, processes and times go on from the parts already written.
 */
public final class History {
    /** The run directory's folder of history parts. */
    public static final String DIR = "history";
    /** The history's format, recorded in the manifest ({@code history.format}). */
    public static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final long originNanos;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private long nextIndex;
    private long nextProcess;
    private List<Entry> entries = new ArrayList<>();
    private int nextPart;
    /** The last fault that began (its id); null before the first. Guarded by the lock. */
    private String lastFault;
    private long faultsBegun;
    private final Object flushLock = new Object();

    private History(Path dir, long originNanos, long nextIndex, long nextProcess, int nextPart) {
        this.dir = dir;
        this.originNanos = originNanos;
        this.nextIndex = nextIndex;
        this.nextProcess = nextProcess;
        this.nextPart = nextPart;
    }

    /**
     * The history of the run in {@code runDir}: a new one, or the continuation of the parts an earlier start of the
     * run wrote (its times, indexes and processes go on after theirs).
     */
    public static History of(Path runDir) throws IOException {
        Path dir = runDir.resolve(DIR);
        Files.createDirectories(dir);
        HistoryFiles.Tail tail = HistoryFiles.tail(dir);
        long origin = System.nanoTime() - (tail.parts() == 0 ? 0 : tail.lastTimeNanos() + 1);
        return new History(dir, origin, tail.nextIndex(), tail.nextProcess(), tail.parts());
    }

    /** The processes of client {@code clientId}: one per request it has in flight at once. */
    public Client client(String clientId) {
        return new Client(clientId);
    }

    /** Records a fault's start (Jepsen's {@code info} of the nemesis): its id, kind and target. */
    public void faultStarted(String faultId, String kind, String target) {
        synchronized (lock) {
            lastFault = faultId;
            faultsBegun++;
            add(new Entry(HistoryEvent.Type.INFO, "start", Map.of("fault", faultId, "kind", kind,
                    "target", target == null ? "" : target), HistoryEvent.NEMESIS, null, "nemesis", -1));
        }
    }

    /** Adds {@code e} as the next event; under the lock. */
    private void add(Entry e) {
        e.index = nextIndex++;
        e.timeNanos = System.nanoTime() - originNanos;
        entries.add(e);
    }

    /**
     * Writes the events recorded since the last flush as the next part (nothing when there are none). Safe while
     * clients record: what they record meanwhile goes to the next part.
     */
    public void flush() throws IOException {
        synchronized (flushLock) {
            List<Entry> batch;
            int part;
            synchronized (lock) {
                if (entries.isEmpty()) {
                    return;
                }
                batch = entries;
                entries = new ArrayList<>();
                part = nextPart++;
            }
            List<HistoryEvent> events = new ArrayList<>(batch.size());
            for (Entry e : batch) {
                events.add(e.event());
            }
            HistoryFiles.writePart(dir.resolve(HistoryFiles.partName(part)), events);
        }
    }

    /** One client's processes: a process per request in flight, a new one after an {@code info}. */
    public final class Client {
        private final String clientId;
        /** Processes whose last operation completed ({@code ok} or {@code fail}): free to carry the next one. */
        private final List<Long> free = new ArrayList<>();

        private Client(String clientId) {
            this.clientId = clientId;
        }

        /** Records the invocation of {@code op}, the request {@code seq} of this client; returns its completion. */
        public Operation invoke(Invocation op, long seq) {
            long process;
            synchronized (free) {
                process = free.isEmpty() ? -2 : free.remove(free.size() - 1);
            }
            synchronized (lock) {
                if (process == -2) {
                    process = nextProcess++;
                }
                add(new Entry(HistoryEvent.Type.INVOKE, op.f(), op.value(), process, op.key(), clientId, seq));
                return new Operation(this, op, process, seq, faultsBegun);
            }
        }

        private void release(long process) {
            synchronized (free) {
                free.add(process);
            }
        }
    }

    /** An operation in flight: record how it completed, once. */
    public final class Operation {
        private final Client client;
        private final Invocation op;
        private final long process;
        private final long seq;
        private final long faultsBegunAtInvoke;
        private boolean done;

        private Operation(Client client, Invocation op, long process, long seq, long faultsBegun) {
            this.client = client;
            this.op = op;
            this.process = process;
            this.seq = seq;
            this.faultsBegunAtInvoke = faultsBegun;
        }

        /** It took effect; {@code value}: what the reply said; {@code replica}: who answered. */
        public void ok(Object value, String replica, String key) {
            complete(HistoryEvent.Type.OK, value, replica, key);
        }

        /**
         * It failed with {@code e}: {@code fail} when the service refused it (its transaction rolled back: it took
         * no effect), {@code info} otherwise (no reply: it may or may not have taken effect).
         */
        public void failed(Exception e) {
            Map<String, String> why = Map.of("error", e.getClass().getSimpleName(),
                    "message", String.valueOf(e.getMessage()));
            complete(e instanceof AuctionException ? HistoryEvent.Type.FAIL : HistoryEvent.Type.INFO, why, null,
                    null);
        }

        private void complete(HistoryEvent.Type type, Object value, String replica, String key) {
            if (done) {
                throw new IllegalStateException("operation " + op.f() + " of " + client.clientId + " #" + seq
                        + " completed twice");
            }
            done = true;
            Entry e = new Entry(type, op.f(), value, process, key != null ? key : op.key(), client.clientId, seq);
            e.replica = replica;
            synchronized (lock) {
                e.fault = faultsBegun > faultsBegunAtInvoke ? lastFault : null; // one began while it was in flight
                add(e);
            }
            if (type != HistoryEvent.Type.INFO) {
                client.release(process);
            }
        }
    }

    /** An event before it is written: its value still the object the workload gave. */
    private static final class Entry {
        final HistoryEvent.Type type;
        final String f;
        final Object value;
        final long process;
        final String key;
        final String client;
        final long seq;
        long index;
        long timeNanos;
        String replica;
        String fault;

        Entry(HistoryEvent.Type type, String f, Object value, long process, String key, String client, long seq) {
            this.type = type;
            this.f = f;
            this.value = value;
            this.process = process;
            this.key = key;
            this.client = client;
            this.seq = seq;
        }

        /** The event as the history's files hold it: its value turned into JSON (at flush, off the timed path). */
        HistoryEvent event() {
            return new HistoryEvent(index, type, f, value == null ? null : JSON.valueToTree(value), process,
                    timeNanos, key, process == HistoryEvent.NEMESIS ? null : client, seq, replica, fault);
        }
    }
}
