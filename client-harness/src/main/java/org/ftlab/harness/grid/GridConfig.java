package org.ftlab.harness.grid;

import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.probe.ConfigId;

/**
 * One configuration of the grid: how many concurrent clients, their load — a think time between a reply and the next
 * request (closed loop) or a request rate per client (open loop) — and the reply size. Its id names its probe file:
 * {@code c04-t20-r512} is 4 clients, 20 ms think time, 512-byte replies; {@code c04-rate50-rorig} is 4 clients sending
 * 50 requests/s each on an open-loop schedule, original replies ({@code rorig}).
 *
 * @param ratePerS requests per second per client in an open-loop grid; 0 in a closed-loop one
 */
public record GridConfig(int clients, int thinkMillis, double ratePerS, ReplySize reply) {
    public GridConfig {
        if (clients < 1 || clients > 99) {
            throw new IllegalArgumentException("clients must be 1 to 99, was " + clients);
        }
        if (thinkMillis < 0 || thinkMillis > 99_999) {
            throw new IllegalArgumentException("think time must be 0 to 99999 ms, was " + thinkMillis);
        }
        if (ratePerS < 0 || Double.isNaN(ratePerS) || Double.isInfinite(ratePerS)) {
            throw new IllegalArgumentException("rate must be a positive number of requests/s, was " + ratePerS);
        }
        if (ratePerS > 0 && thinkMillis > 0) {
            throw new IllegalArgumentException("an open-loop configuration has a rate, not a think time");
        }
    }

    /** A closed-loop configuration. */
    public GridConfig(int clients, int thinkMillis, ReplySize reply) {
        this(clients, thinkMillis, 0, reply);
    }

    public static GridConfig openLoop(int clients, double ratePerS, ReplySize reply) {
        if (!(ratePerS > 0)) {
            throw new IllegalArgumentException("an open-loop rate must be above 0, was " + ratePerS);
        }
        return new GridConfig(clients, 0, ratePerS, reply);
    }

    public boolean openLoop() {
        return ratePerS > 0;
    }

    public String id() {
        return idOf(0).config();
    }

    /** The probe file name of this configuration's replicate {@code replicate} (0: the run has one replicate). */
    public ConfigId idOf(int replicate) {
        return new ConfigId(clients, thinkMillis, ratePerS, reply.isOriginal() ? -1 : reply.bytes(), replicate);
    }

    @Override
    public String toString() {
        return id();
    }
}
