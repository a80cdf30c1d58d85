package org.ftlab.harness.attribution;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each process of the lab did while one block ran, from its recording (docs/analysis.md, "Outliers against
 * the processes' load"): the system-level metrics seed 000 set the outliers against (its Finding IV), as far as a
 * JVM records them. Per JVM ({@code harness}, {@code r1}, …, {@code fd}, {@code rm}): {@code <p>.user_cpu} and
 * {@code <p>.kernel_cpu}, its mean CPU use in user and kernel mode as a share of the machine's CPUs; {@code
 * <p>.gc_pauses} and {@code <p>.gc_pause_ms}, its collections' stop-the-world pauses that began in the block, and
 * their total; and for the machine, {@code machine.cpu} (its mean CPU use) and {@code machine.context_switches_per_s}
 * (the harness's samples). Page faults and the resident set are not recorded (JFR does not sample them on Java 17).
 */
public final class BlockLoad {
    private BlockLoad() {
    }

    /** The metrics of the block that ran from {@code fromUs} to {@code toUs}; a metric without samples is left out. */
    public static Map<String, Double> of(RunEvents events, long fromUs, long toUs) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (Map.Entry<String, List<JfrStalls.LoadSample>> e : events.load().entrySet()) {
            double user = 0;
            double kernel = 0;
            double machine = 0;
            double switches = 0;
            int n = 0;
            int nSwitches = 0;
            for (JfrStalls.LoadSample s : e.getValue()) {
                if (s.atUs() >= fromUs && s.atUs() <= toUs) {
                    user += s.user();
                    kernel += s.system();
                    machine += s.machine();
                    n++;
                    if (!Double.isNaN(s.switchesPerS())) {
                        switches += s.switchesPerS();
                        nSwitches++;
                    }
                }
            }
            String p = e.getKey();
            if (n > 0) {
                m.put(p + ".user_cpu", user / n);
                m.put(p + ".kernel_cpu", kernel / n);
                if (p.equals(Attribution.HARNESS)) {
                    m.put("machine.cpu", machine / n);
                    if (nSwitches > 0) {
                        m.put("machine.context_switches_per_s", switches / nSwitches);
                    }
                }
            }
            int pauses = 0;
            long pauseUs = 0;
            for (Stall s : events.of(p)) {
                if (s.cause() == Stall.Cause.GC_PAUSE && s.startUs() >= fromUs && s.startUs() <= toUs) {
                    pauses++;
                    pauseUs += s.durationUs();
                }
            }
            m.put(p + ".gc_pauses", (double) pauses);
            m.put(p + ".gc_pause_ms", pauseUs / 1000.0);
        }
        return m;
    }
}
