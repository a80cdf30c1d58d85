package org.ftlab.os;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** Finds free loopback ports and WildFly port offsets whose whole socket-binding group is free. */
public final class FreePorts {
    /** The ports of the provisioned server's socket-binding group before the offset is added. */
    private static final int[] WILDFLY_BASE_PORTS = {8080, 8443, 8009, 9990, 9993, 4712, 4713};
    private static final int OFFSET_STEP = 100;
    private static final int HEARTBEAT_PORTS_START = 20_000;
    private static final int HEARTBEAT_PORTS_END = 30_000;
    /** Keeps WildFly's ports (at most 9993 + offset) below the heartbeat range. */
    private static final int MAX_OFFSET = 10_000;
    /** Offsets handed out by this JVM whose servers may not have bound their ports yet. */
    private static final Set<Integer> RESERVED_OFFSETS = new HashSet<>();
    /**
     * Offsets claimed across processes: a lock file per offset, held while this JVM's replica may use it. Two labs on
     * one machine (say, one kept by {@code ftlab lab} and one a grid boots) otherwise pick the same free offset when
     * both look before either replica has bound its ports. The operating system drops a lock when its process ends.
     */
    private static final Path CLAIMS_DIR = Path.of(System.getProperty("java.io.tmpdir"), "ftlab-port-offsets");
    private static final Map<Integer, FileLock> CLAIMED = new HashMap<>();
    /** Heartbeat port pairs handed out by this JVM (ephemeral ports are not reserved by the kernel once closed). */
    private static final Set<Integer> RESERVED_PORTS = new HashSet<>();

    private FreePorts() {
    }

    public static int findFreePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * A free port p with p+1 also free (JGroups TCP on p, its FD_SOCK2 on p+1). Taken from 20000–29999, below the
     * kernel's ephemeral range (32768 and up): a port picked from the ephemeral range can be taken by any outgoing
     * connection between the check and the bind, which made a replica fail to join the heartbeat group.
     */
    public static synchronized int findFreePortPair() throws IOException {
        int span = (HEARTBEAT_PORTS_END - HEARTBEAT_PORTS_START) / 2;
        int start = ThreadLocalRandom.current().nextInt(span); // spread concurrent labs over the range
        for (int i = 0; i < span; i++) {
            int p = HEARTBEAT_PORTS_START + 2 * ((start + i) % span);
            if (!RESERVED_PORTS.contains(p) && isFree(p) && isFree(p + 1)) {
                RESERVED_PORTS.add(p);
                return p;
            }
        }
        throw new IOException("no two adjacent free ports between " + HEARTBEAT_PORTS_START + " and "
                + HEARTBEAT_PORTS_END + " on 127.0.0.1");
    }

    /** The first offset (a multiple of 100, from {@code from}) at which every replica port is free on 127.0.0.1. */
    public static synchronized int reservePortOffset(int from) throws IOException {
        for (int offset = from; offset <= MAX_OFFSET; offset += OFFSET_STEP) {
            if (!RESERVED_OFFSETS.contains(offset) && allFree(offset) && claim(offset)) {
                RESERVED_OFFSETS.add(offset);
                return offset;
            }
        }
        throw new IOException("no free WildFly port offset between " + from + " and " + MAX_OFFSET
                + " on 127.0.0.1; stop other servers or free ports 8080+offset");
    }

    /**
     * Claims {@code offset} for this JVM's use although another process chose it (a replica another manager
     * launched, now adopted here); a claim another live process still holds is left to it.
     */
    public static synchronized void claimPortOffset(int offset) {
        if (RESERVED_OFFSETS.add(offset)) {
            claim(offset);
        }
    }

    public static synchronized void releasePortOffset(int offset) {
        RESERVED_OFFSETS.remove(offset);
        FileLock lock = CLAIMED.remove(offset);
        if (lock != null) {
            try {
                lock.channel().close(); // releases the lock
            } catch (IOException e) {
                // the lock goes with this process at the latest
            }
        }
    }

    /** Claims {@code offset} for this process; false if another process holds it. */
    private static boolean claim(int offset) {
        FileChannel channel = null;
        try {
            Files.createDirectories(CLAIMS_DIR);
            channel = FileChannel.open(CLAIMS_DIR.resolve(offset + ".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                return false;
            }
            CLAIMED.put(offset, lock);
            return true;
        } catch (IOException e) {
            // no shared place for claims (a temporary directory we cannot write): the bind check alone decides
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // nothing held
                }
            }
            return true;
        }
    }

    private static boolean allFree(int offset) {
        for (int base : WILDFLY_BASE_PORTS) {
            if (!isFree(base + offset)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true); // as WildFly binds: a port in TIME_WAIT is free for it
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
