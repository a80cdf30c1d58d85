package org.ftlab.harness.probe;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of a probe file, shared by the grid that writes it and the analysis that reads it: the configuration
 * (clients, think time or open-loop rate, reply size) and the replicate. {@code c04-t20-r512} is 4 clients, 20 ms
 * think time, 512-byte replies; {@code c04-rate50-rorig} is 4 clients sending 50 requests/s each on an open-loop
 * schedule with the original replies; {@code c04-t20-r512-rep2} is the second replicate of a run with R &gt; 1.
 *
 * @param thinkMillis think time (closed loop); 0 in open loop
 * @param ratePerS requests per second per client (open loop); 0 in closed loop
 * @param replyBytes the fixed reply size, or -1 for the original reply
 * @param replicate 1…R; 0 when the run has one replicate (no suffix)
 */
public record ConfigId(int clients, int thinkMillis, double ratePerS, int replyBytes, int replicate) {
    private static final Pattern ID = Pattern.compile(
            "c(\\d+)-(?:t(\\d+)|rate(\\d+(?:\\.\\d+)?))-r(orig|\\d+)(?:-rep(\\d+))?");

    /** The configuration's id, without the replicate. */
    public String config() {
        String load = ratePerS > 0 ? "rate" + formatRate(ratePerS) : String.format(Locale.ROOT, "t%02d", thinkMillis);
        return String.format(Locale.ROOT, "c%02d-%s-r%s", clients, load,
                replyBytes < 0 ? "orig" : Integer.toString(replyBytes));
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

    /** Parses a file stem (the name without {@code .csv}); null when it is not a probe file's name. */
    public static ConfigId parse(String stem) {
        Matcher m = ID.matcher(stem);
        if (!m.matches()) {
            return null;
        }
        try {
            return new ConfigId(Integer.parseInt(m.group(1)), m.group(2) == null ? 0 : Integer.parseInt(m.group(2)),
                    m.group(3) == null ? 0 : Double.parseDouble(m.group(3)),
                    m.group(4).equals("orig") ? -1 : Integer.parseInt(m.group(4)),
                    m.group(5) == null ? 0 : Integer.parseInt(m.group(5)));
        } catch (NumberFormatException e) {
            return null; // digits too many for an int: not one of ours
        }
    }
}
