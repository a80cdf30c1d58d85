package org.ftlab.harness.probe;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of a probe file, shared by the grid that writes it and the analysis that reads it: the configuration
 * (clients, think time or open-loop rate, reply size, and the infrastructure factors a run varies) and the replicate.
 * {@code c04-t20-r512} is 4 clients, 20 ms think time, 512-byte replies; {@code c04-rate50-rorig} is 4 clients
 * sending 50 requests/s each on an open-loop schedule with the original replies; {@code c04-t20-r512-rep2} is the
 * second replicate of a run with R &gt; 1. A run that varies the fail-over strategy, the replication degree or the
 * middleware platform names its level in the block: {@code c04-t00-rorig-sactive-n3-rep2} is active replication at
 * degree 3 ({@code -s<strategy>}, {@code -n<replicas>}, {@code -p<platform>}, in that order, each only when the run
 * varies it; a plug-in strategy {@code class:NAME} is written {@code class.NAME}; a strategy's name may hold a
 * hyphen, {@code -swildfly-cluster}).
 *
 * @param thinkMillis think time (closed loop); 0 in open loop
 * @param ratePerS requests per second per client (open loop); 0 in closed loop
 * @param replyBytes the fixed reply size, or -1 for the original reply
 * @param strategy the fail-over strategy, when the run varies it; else null (the manifest's one)
 * @param replicas the replication degree, when the run varies it; else 0 (the manifest's one)
 * @param platform the middleware platform, when the run varies it; else null (the manifest's one)
 * @param replicate 1…R; 0 when the run has one replicate (no suffix)
 */
public record ConfigId(int clients, int thinkMillis, double ratePerS, int replyBytes, String strategy, int replicas,
        String platform, int replicate) {
    private static final Pattern ID = Pattern.compile("c(\\d+)-(?:t(\\d+)|rate(\\d+(?:\\.\\d+)?))-r(orig|\\d+)"
            + "(?:-s([A-Za-z0-9_.$]+(?:-[A-Za-z][A-Za-z0-9_.$]*)*?))?(?:-n(\\d+))?(?:-p([a-z0-9]+))?(?:-rep(\\d+))?");
    private static final String PLUGIN_PREFIX = "class:";
    private static final String PLUGIN_TOKEN = "class.";

    /** A configuration of the workload factors only (the run varies no infrastructure). */
    public ConfigId(int clients, int thinkMillis, double ratePerS, int replyBytes, int replicate) {
        this(clients, thinkMillis, ratePerS, replyBytes, null, 0, null, replicate);
    }

    /** The configuration's id, without the replicate. */
    public String config() {
        String load = ratePerS > 0 ? "rate" + formatRate(ratePerS) : String.format(Locale.ROOT, "t%02d", thinkMillis);
        return String.format(Locale.ROOT, "c%02d-%s-r%s", clients, load,
                replyBytes < 0 ? "orig" : Integer.toString(replyBytes))
                + (strategy == null ? "" : "-s" + strategyToken(strategy))
                + (replicas > 0 ? "-n" + replicas : "")
                + (platform == null ? "" : "-p" + platform);
    }

    /** The file name without {@code .csv}. */
    public String fileStem() {
        return replicate > 0 ? config() + "-rep" + replicate : config();
    }

    public boolean openLoop() {
        return ratePerS > 0;
    }

    /** {@code original} or the reply size in bytes, as the analysis names it. */
    public String reply() {
        return replyBytes < 0 ? "original" : Integer.toString(replyBytes);
    }

    /** A rate as written in ids and tables: no trailing zeros ({@code 50}, {@code 12.5}). */
    public static String formatRate(double r) {
        return BigDecimal.valueOf(r).stripTrailingZeros().toPlainString();
    }

    /** A strategy's name as a file name has it: a plug-in's {@code class:NAME} as {@code class.NAME}. */
    static String strategyToken(String strategy) {
        return strategy.startsWith(PLUGIN_PREFIX) ? PLUGIN_TOKEN + strategy.substring(PLUGIN_PREFIX.length())
                : strategy;
    }

    /** Parses a file stem (the name without {@code .csv}); null when it is not a probe file's name. */
    public static ConfigId parse(String stem) {
        Matcher m = ID.matcher(stem);
        if (!m.matches()) {
            return null;
        }
        try {
            String strategy = m.group(5) == null ? null : m.group(5).startsWith(PLUGIN_TOKEN)
                    ? PLUGIN_PREFIX + m.group(5).substring(PLUGIN_TOKEN.length()) : m.group(5);
            return new ConfigId(Integer.parseInt(m.group(1)), m.group(2) == null ? 0 : Integer.parseInt(m.group(2)),
                    m.group(3) == null ? 0 : Double.parseDouble(m.group(3)),
                    m.group(4).equals("orig") ? -1 : Integer.parseInt(m.group(4)), strategy,
                    m.group(6) == null ? 0 : Integer.parseInt(m.group(6)), m.group(7),
                    m.group(8) == null ? 0 : Integer.parseInt(m.group(8)));
        } catch (NumberFormatException e) {
            return null; // digits too many for an int: not one of ours
        }
    }
}
