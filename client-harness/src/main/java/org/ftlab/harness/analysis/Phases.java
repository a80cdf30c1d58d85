package org.ftlab.harness.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Fail-overs told as phases (name → length in µs, negative for a step that did not happen), as the database's and the
 * managers' sections tell theirs: the median of a phase, and a length in ms for the page.
 */
final class Phases {
    private Phases() {
    }

    /** The median of {@code phase} over the fail-overs where it happened, µs; -1 if it never did. */
    static <F> long median(List<F> failovers, Function<F, Map<String, Long>> phases, String phase) {
        List<Long> values = new ArrayList<>();
        for (F f : failovers) {
            long v = phases.apply(f).get(phase);
            if (v >= 0) {
                values.add(v);
            }
        }
        if (values.isEmpty()) {
            return -1;
        }
        values.sort(null);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    /** The page's header cells of the phases, as the first fail-over names them (none without a fail-over). */
    static <F> void headerCells(StringBuilder h, List<F> failovers, Function<F, Map<String, Long>> phases) {
        if (!failovers.isEmpty()) {
            for (String n : phases.apply(failovers.get(0)).keySet()) {
                h.append("<th>").append(HtmlPage.esc(n)).append("</th>");
            }
        }
    }

    /** A length in ms with one decimal, {@code -} for a step that did not happen. */
    static String ms(long us) {
        return us < 0 ? "-" : String.format(Locale.ROOT, "%.1f", us / 1e3);
    }
}
