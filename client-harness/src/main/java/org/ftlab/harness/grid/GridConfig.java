package org.ftlab.harness.grid;

import java.util.Locale;
import org.ftlab.auction.api.ReplySize;

/**
 * One configuration of the grid: how many concurrent clients, how long each thinks between requests, and the reply
 * size. Its id names its probe file: {@code c04-t20-r512} is 4 clients, 20 ms think time, 512-byte replies;
 * {@code rorig} stands for the original reply size.
 */
public record GridConfig(int clients, int thinkMillis, ReplySize reply) {

    public GridConfig {
        if (clients < 1 || clients > 99) {
            throw new IllegalArgumentException("clients must be 1 to 99, was " + clients);
        }
        if (thinkMillis < 0 || thinkMillis > 99_999) {
            throw new IllegalArgumentException("think time must be 0 to 99999 ms, was " + thinkMillis);
        }
    }

    public String id() {
        return String.format(Locale.ROOT, "c%02d-t%02d-r%s", clients, thinkMillis,
                reply.isOriginal() ? "orig" : Integer.toString(reply.bytes()));
    }

    @Override
    public String toString() {
        return id();
    }
}
