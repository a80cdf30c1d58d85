package org.ftlab.stateful;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.ftlab.tart.MergeScheduler;

/**
 * A soft checkpoint of the tier (seed 003 §II.F.2), taken by the engine between two messages: its book, its
 * scheduler's state (what each wire is known through, the messages held), and for each gateway the stamp and virtual
 * time of the last message it delivered. Recovery restores it and replays the logged inputs stamped after those.
 *
 * @param messages messages the engine had handled when it was taken
 */
public record Checkpoint(long messages, AuctionBook book, MergeScheduler.State<Step> scheduler,
        long[] deliveredStamp, long[] deliveredVt) implements Serializable {
    private static final ObjectInputFilter ONLY_TIER_TYPES = ObjectInputFilter.Config.createFilter(
            "org.ftlab.stateful.*;org.ftlab.tart.*;java.lang.*;java.util.*;[J;maxdepth=40;!*");

    /** The checkpoint before anything was handled, for {@code gateways} gateways. */
    public static Checkpoint empty(int gateways) {
        long[] none = new long[gateways];
        java.util.Arrays.fill(none, Long.MIN_VALUE);
        return new Checkpoint(0, new AuctionBook(), new MergeScheduler.State<>(none.clone(), none.clone(),
                java.util.List.of()), none.clone(), none.clone());
    }

    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(this);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize a checkpoint", e);
        }
        return bytes.toByteArray();
    }

    public static Checkpoint fromBytes(byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            in.setObjectInputFilter(ONLY_TIER_TYPES);
            return (Checkpoint) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("a stored checkpoint is unreadable: " + e.getMessage(), e);
        }
    }

    public int gateways() {
        return deliveredStamp.length;
    }
}
