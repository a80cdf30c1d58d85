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

    /** Nanoseconds this thread has waited in a run queue since it started, or {@link #UNKNOWN}. */
    public static long runQueueNanos() {
        return READER.get().field(1);
    }

    /** Nanoseconds this thread has run on a CPU since it started, or {@link #UNKNOWN}. */
    public static long cpuNanos() {
        return READER.get().field(0);
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
            if (channel == null) {
                return UNKNOWN;
            }
            buffer.clear();
            try {
                if (channel.read(buffer, 0) <= 0) {
                    return UNKNOWN;
                }
            } catch (IOException e) {
                return UNKNOWN;
            }
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
