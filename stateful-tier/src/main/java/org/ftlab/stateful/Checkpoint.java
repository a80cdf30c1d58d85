package org.ftlab.stateful;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
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
    /** The checkpoint before anything was handled, for {@code gateways} gateways. */
    public static Checkpoint empty(int gateways) {
        long[] none = new long[gateways];
        Arrays.fill(none, Long.MIN_VALUE);
        return new Checkpoint(0, new AuctionBook(), new MergeScheduler.State<>(none.clone(), none.clone(),
                List.of()), none.clone(), none.clone());
    }

    public byte[] toBytes() {
        return Serial.toBytes(this);
    }

    public static Checkpoint fromBytes(byte[] bytes) {
        return Serial.fromBytes(bytes, Checkpoint.class);
    }

    public int gateways() {
        return deliveredStamp.length;
    }
}
