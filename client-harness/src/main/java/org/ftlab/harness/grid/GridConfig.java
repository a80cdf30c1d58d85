package org.ftlab.harness.grid;

import org.ftlab.auction.api.ReplySize;
import org.ftlab.harness.probe.ConfigId;

/**
 * One configuration of the grid: how many concurrent clients, their load — a think time between a reply and the next
 * request (closed loop) or a request rate per client (open loop) — and the reply size. Its id names its probe file:
 * {@code c04-t20-r512} is 4 clients, 20 ms think time, 512-byte replies; {@code c04-rate50-rorig} is 4 clients sending
 * 50 requests/s each on an open-loop schedule, original replies ({@code rorig}).
 *
 * A run may vary the infrastructure too: the fail-over strategy, the replication degree and the middleware platform;
 * a configuration names the levels of those it varies ({@code c04-t00-rorig-sactive-n3}).
 *
 * @param ratePerS requests per second per client in an open-loop grid; 0 in a closed-loop one
 * @param strategy the fail-over strategy of this configuration when the run varies it; null: the run's one
 * @param replicas the replication degree of this configuration when the run varies it; 0: the run's one
 * @param platform the middleware platform of this configuration when the run varies it; null: the run's one
 */
public record GridConfig(int clients, int thinkMillis, double ratePerS, ReplySize reply, String strategy,
        int replicas, String platform) {
    public GridConfig {
        if (replicas < 0 || replicas > 5) {
            throw new IllegalArgumentException("replicas must be 1 to 5, was " + replicas);
        }
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

    /** A configuration of the workload factors only. */
    public GridConfig(int clients, int thinkMillis, double ratePerS, ReplySize reply) {
        this(clients, thinkMillis, ratePerS, reply, null, 0, null);
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

    /** This configuration at the given infrastructure levels (null / 0: a factor the run does not vary). */
    public GridConfig on(String newStrategy, int newReplicas, String newPlatform) {
        return new GridConfig(clients, thinkMillis, ratePerS, reply, newStrategy, newReplicas, newPlatform);
    }

    public boolean openLoop() {
        return ratePerS > 0;
    }

    public String id() {
        return idOf(0).config();
    }

    /** The probe file name of this configuration's replicate {@code replicate} (0: the run has one replicate). */
    public ConfigId idOf(int replicate) {
        return new ConfigId(clients, thinkMillis, ratePerS, reply.isOriginal() ? -1 : reply.bytes(), strategy,
                replicas, platform, replicate);
    }

    @Override
    public String toString() {
        return id();
    }
}
