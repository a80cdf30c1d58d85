package org.ftlab.auction.api;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The calling thread's CPU accounting from the Linux scheduler ({@code /proc/thread-self/schedstat}: time run on a
 * CPU, and time spent runnable but waiting in a run queue for one): read before and after a request, the difference
 * says how long its thread waited for a CPU while the request was in it. Each thread keeps its file open and re-reads
 * it (one system call, no allocation after the first read). Where the file does not exist (not Linux, a kernel
 * without scheduler statistics), every reading is {@link #UNKNOWN}.
 */
public final class ThreadSchedstat {
    /** No reading. */
    public static final long UNKNOWN = -1;
    private static final Path FILE = Path.of("/proc/thread-self/schedstat");
    private static final ThreadLocal<Reader> READER = ThreadLocal.withInitial(Reader::open);

    private ThreadSchedstat() {
    }

    /**
     * Both counters of this thread from one reading: {@code into[0]} the ns it ran on a CPU, {@code into[1]} the ns it
     * waited in a run queue ({@link #UNKNOWN} each if unreadable). No allocation.
     */
    public static void read(long[] into) {
        Reader r = READER.get();
        if (!r.load()) {
            into[0] = UNKNOWN;
            into[1] = UNKNOWN;
            return;
        }
        into[0] = r.parsed(0);
        into[1] = r.parsed(1);
    }

    /** Nanoseconds this thread has waited in a run queue since it started, or {@link #UNKNOWN}. */
    public static long runQueueNanos() {
        return READER.get().field(1);
    }

    /**
     * Another thread's counters kept open for repeated readings: {@link #both()} re-reads them (one system call). Safe
     * to share between threads.
     */
    public static final class Other implements AutoCloseable {
        private final FileChannel channel;

        private Other(FileChannel channel) {
            this.channel = channel;
        }

        /** Thread {@code tid} of process {@code pid} on this machine, or null if its counters cannot be read. */
        public static Other open(long pid, long tid) {
            try {
                return new Other(FileChannel.open(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid),
                        "schedstat"), StandardOpenOption.READ));
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        /** {@code {cpu ns, run-queue ns}} now, {@link #UNKNOWN} each if unreadable (the thread ended). */
        public long[] both() {
            return new Reader(channel).both();
        }

        @Override
        public void close() {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing to keep
            }
        }
    }

    /** µs between two readings, or {@link #UNKNOWN} if either is. */
    public static long deltaMicros(long beforeNanos, long afterNanos) {
        return beforeNanos < 0 || afterNanos < 0 ? UNKNOWN : (afterNanos - beforeNanos) / 1_000;
    }

    /** One thread's open file (null channel: none to read). */
    private static final class Reader {
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocate(128);

        private Reader(FileChannel channel) {
            this.channel = channel;
        }

        static Reader open() {
            try {
                // /proc/thread-self names the opening thread: the channel stays this thread's
                return new Reader(FileChannel.open(FILE, StandardOpenOption.READ));
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                return new Reader(null);
            }
        }

        long field(int index) {
            return load() ? parsed(index) : UNKNOWN;
        }

        long[] both() {
            return load() ? new long[] {parsed(0), parsed(1)} : new long[] {UNKNOWN, UNKNOWN};
        }

        /** Reads the file afresh into the buffer; false if it cannot be read. */
        boolean load() {
            if (channel == null) {
                return false;
            }
            buffer.clear();
            try {
                return channel.read(buffer, 0) > 0;
            } catch (IOException e) {
                return false;
            }
        }

        /** Field {@code index} of the loaded text. */
        long parsed(int index) {
            long value = 0;
            int field = 0;
            boolean digits = false;
            for (int i = 0; i < buffer.position(); i++) {
                byte b = buffer.get(i);
                if (b >= '0' && b <= '9') {
                    value = value * 10 + (b - '0');
                    digits = true;
                } else if (digits) {
                    if (field == index) {
                        return value;
                    }
                    field++;
                    value = 0;
                    digits = false;
                }
            }
            return digits && field == index ? value : UNKNOWN;
        }
    }
}
