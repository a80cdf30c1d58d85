package org.ftlab.fd;

import java.io.InputStream;
import org.jgroups.JChannel;

/**
 * Builds the heartbeat group channel with the stack in {@code ftlab-heartbeat.xml}. Replicas and the detector call
 * the same code with the same jar, so their stacks are identical (JGroups refuses mismatched ones).
 *
 * <p>Settings are system properties: {@code ftlab.hb.bind_port} (this member's TCP port; FD_SOCK2 uses the next
 * one), {@code ftlab.hb.initial_hosts} (the detectors, {@code 127.0.0.1[port],…}), {@code ftlab.hb.interval_ms} (H) and
 * {@code ftlab.hb.timeout_ms} (T); and, for tests that wait for merges, {@code ftlab.hb.merge_min_interval} and
 * {@code ftlab.hb.merge_max_interval} (MERGE3's, 2 s and 5 s by default).
 */
public final class HeartbeatStack {
    public static final String CLUSTER = "ftlab-heartbeat";
    /**
     * The first Fault Detector's member name; standby detectors are {@code fd2}, {@code fd3}, …
     * ({@link #detectorName}). {@link DetectorFirstPolicy} keeps the detectors first, so one of them coordinates.
     */
    public static final String DETECTOR = "fd";
    private static final String CONFIG = "/ftlab-heartbeat.xml";

    private HeartbeatStack() {
    }

    /** The member name of the {@code index}th detector of a lab (from 1): {@code fd}, then {@code fd2}, {@code fd3}. */
    public static String detectorName(int index) {
        if (index < 1) {
            throw new IllegalArgumentException("a detector's index starts at 1, was " + index);
        }
        return index == 1 ? DETECTOR : DETECTOR + index;
    }

    /** The index of the detector named {@code memberName} ({@link #detectorName}); 0 if it names no detector. */
    public static int detectorIndex(String memberName) {
        if (DETECTOR.equals(memberName)) {
            return 1;
        }
        if (memberName == null || !memberName.startsWith(DETECTOR) || memberName.length() == DETECTOR.length()) {
            return 0;
        }
        for (int i = DETECTOR.length(); i < memberName.length(); i++) {
            if (!Character.isDigit(memberName.charAt(i))) {
                return 0;
            }
        }
        int index = Integer.parseInt(memberName.substring(DETECTOR.length()));
        return index >= 2 ? index : 0;
    }

    /**
     * Creates (does not connect) a channel named {@code memberName}. Replica member names are
     * {@link MemberName#of(String, long) name/pid}, so the detector can tell a dead process from a hung one.
     */
    public static JChannel create(String memberName) throws Exception {
        JChannel channel;
        try (InputStream config = HeartbeatStack.class.getResourceAsStream(CONFIG)) {
            if (config == null) {
                throw new IllegalStateException(CONFIG + " is missing from the fault-detector jar");
            }
            channel = new JChannel(config);
        }
        channel.name(memberName);
        channel.setDiscardOwnMessages(true);
        return channel;
    }

    /** The stack's tap of raw suspicions (below VERIFY_SUSPECT). */
    public static SuspicionTap rawTap(JChannel channel) {
        return channel.getProtocolStack().findProtocol(RawSuspicionTap.class);
    }

    /** The stack's tap of verified suspicions (above VERIFY_SUSPECT). */
    public static SuspicionTap verifiedTap(JChannel channel) {
        return channel.getProtocolStack().findProtocol(VerifiedSuspicionTap.class);
    }
}
