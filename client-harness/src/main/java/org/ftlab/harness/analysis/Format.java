package org.ftlab.harness.analysis;

import java.util.Locale;

/** How the text and the pages print a figure that may be missing ("-"). */
public final class Format {
    private Format() {
    }

    /** Microseconds as milliseconds with one decimal. */
    public static String ms(Long us) {
        return us == null ? "-" : String.format(Locale.ROOT, "%.1f", us / 1e3);
    }

    /** A ratio or rate with three decimals. */
    public static String number(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.3f", d);
    }

    public static String yesNo(Boolean b) {
        return b == null ? "-" : b ? "yes" : "no";
    }
}
