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
 * (the harness's samples). From the manager's samples of the lab's processes ({@code r1}, …, {@code db}, {@code fd},
 * {@code rm}): {@code <p>.minor_faults_per_s}, {@code <p>.major_faults_per_s}, {@code <p>.resident_mib} (mean), and
 * the database's {@code db.user_cpu} and {@code db.kernel_cpu}; from its samples of the host: {@code
 * machine.steal_cpu} (the hypervisor's share of the CPUs) and {@code machine.cpu_pressure} (the share of the time
 * some runnable task waited for a CPU).
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
            List<JfrStalls.LoadSample> samples = e.getValue();
            for (int i = Sorted.firstAtLeast(samples, JfrStalls.LoadSample::atUs, fromUs); i < samples.size()
                    && samples.get(i).atUs() <= toUs; i++) {
                JfrStalls.LoadSample s = samples.get(i);
                user += s.user();
                kernel += s.system();
                machine += s.machine();
                n++;
                if (!Double.isNaN(s.switchesPerS())) {
                    switches += s.switchesPerS();
                    nSwitches++;
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
            List<Stall> stalls = events.of(p);
            for (int i = Sorted.firstAtLeast(stalls, Stall::startUs, fromUs); i < stalls.size()
                    && stalls.get(i).startUs() <= toUs; i++) {
                Stall s = stalls.get(i);
                if (s.cause() == Stall.Cause.GC_PAUSE) {
                    pauses++;
                    pauseUs += s.durationUs();
                }
            }
            m.put(p + ".gc_pauses", (double) pauses);
            m.put(p + ".gc_pause_ms", pauseUs / 1000.0);
        }
        int cpus = events.host().isEmpty() ? 0 : events.host().get(0).cpus();
        events.usage().forEach((p, samples) -> {
            double seconds = 0;
            long user = 0;
            long kernel = 0;
            long minor = 0;
            long major = 0;
            double resident = 0;
            int n = 0;
            for (int i = Sorted.firstAtLeast(samples, JfrStalls.ProcessUse::startUs, fromUs); i < samples.size()
                    && samples.get(i).startUs() <= toUs; i++) {
                JfrStalls.ProcessUse u = samples.get(i);
                if (u.endUs() <= toUs) {
                    seconds += (u.endUs() - u.startUs()) / 1e6;
                    user += u.userUs();
                    kernel += u.systemUs();
                    minor += u.minorFaults();
                    major += u.majorFaults();
                    resident += u.residentBytes();
                    n++;
                }
            }
            if (n == 0 || seconds <= 0) {
                return;
            }
            if (!m.containsKey(p + ".user_cpu") && cpus > 0) { // not a JVM that sampled itself (the database)
                m.put(p + ".user_cpu", user / 1e6 / seconds / cpus);
                m.put(p + ".kernel_cpu", kernel / 1e6 / seconds / cpus);
            }
            m.put(p + ".minor_faults_per_s", minor / seconds);
            m.put(p + ".major_faults_per_s", major / seconds);
            m.put(p + ".resident_mib", resident / n / (1 << 20));
        });
        double seconds = 0;
        double steal = 0;
        double pressure = 0;
        boolean pressureKnown = true;
        List<JfrStalls.HostSample> host = events.host();
        for (int i = Sorted.firstAtLeast(host, JfrStalls.HostSample::startUs, fromUs); i < host.size()
                && host.get(i).startUs() <= toUs; i++) {
            JfrStalls.HostSample h = host.get(i);
            if (h.endUs() <= toUs) {
                double s = (h.endUs() - h.startUs()) / 1e6;
                seconds += s;
                steal += h.stealCpus() * s;
                pressureKnown &= h.pressureUs() >= 0;
                pressure += Math.max(0, h.pressureUs()) / 1e6;
            }
        }
        if (seconds > 0) {
            m.put("machine.steal_cpu", steal / seconds / cpus);
            if (pressureKnown) {
                m.put("machine.cpu_pressure", pressure / seconds);
            }
        }
        return m;
    }
}
