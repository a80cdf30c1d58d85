package org.ftlab.harness.bench.suites;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ftlab.harness.bench.Rounds;
import org.ftlab.harness.bench.ServiceBench;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;

/**
 * {@code service}: {@link ServiceBench}'s workloads, fault-free, with 1 and 10 clients, in {@code --repeat} rounds;
 * bench.json's {@code service} and its table of medians over rounds with their ranges.
 */
public final class ServiceSuite implements Suite {
    @Override
    public String name() {
        return "service";
    }

    @Override
    public String description() {
        return "fault-free latency and throughput of view and post with 1 and 10 clients against a no-op EJB call "
                + "and a bare JDBC round trip, and the probe overhead (A/B interleaved).";
    }

    @Override
    public boolean byDefault() {
        return true;
    }

    @Override
    public boolean needsLab() {
        return true;
    }

    @Override
    public void run(SuiteRun run) throws Exception {
        Rounds rounds = run.rounds();
        run.progress().printf(Locale.ROOT, "service: %d rounds of %s, %d timed requests per client%n",
                rounds.repeat(), ServiceBench.WORKLOADS, rounds.requests());
        run.progress().flush();
        List<ServiceBench.Sample> samples = new ServiceBench(run.lab(), run.progress()).run(rounds.repeat(),
                List.of(1, 10), rounds.requests(), rounds.warmup());
        Map<String, Object> summary = ServiceBench.summarize(samples);
        run.report().put("service", summary);
        table(run.report().table(), summary);
    }

    @SuppressWarnings("unchecked")
    private static void table(StringBuilder t, Map<String, Object> summary) {
        t.append(String.format(Locale.ROOT, "%nservice, think time 0 (medians over rounds; range in brackets)%n"
                + "%-10s %-15s %22s %9s %9s %22s %8s%n", "clients", "workload", "mean ms", "p50 ms", "p99 ms",
                "throughput req/s", "p99/mean"));
        for (Map.Entry<String, Object> c : summary.entrySet()) {
            Map<String, Object> per = (Map<String, Object>) c.getValue();
            for (Map.Entry<String, Object> w : per.entrySet()) {
                if (w.getKey().startsWith("ratios")) {
                    continue;
                }
                Map<String, Object> f = (Map<String, Object>) w.getValue();
                ServiceBench.Spread mean = (ServiceBench.Spread) f.get("mean_us");
                ServiceBench.Spread tp = (ServiceBench.Spread) f.get("throughput_per_s");
                t.append(String.format(Locale.ROOT, "%-10s %-15s %7.3f (%5.3f–%5.3f) %9.3f %9.3f %7.0f (%5.0f–%5.0f) "
                        + "%8.2f%n", c.getKey().replace('_', ' '), w.getKey(), mean.median() / 1e3,
                        mean.min() / 1e3, mean.max() / 1e3, ((ServiceBench.Spread) f.get("p50_us")).median() / 1e3,
                        ((ServiceBench.Spread) f.get("p99_us")).median() / 1e3, tp.median(), tp.min(), tp.max(),
                        ((ServiceBench.Spread) f.get("p99_over_mean")).median()));
            }
            Map<String, Object> ratios = (Map<String, Object>) per.get("ratios_of_means_same_round");
            t.append("  same-round ratios of means:");
            for (Map.Entry<String, Object> r : ratios.entrySet()) {
                ServiceBench.Spread s = (ServiceBench.Spread) r.getValue();
                if (s != null) {
                    t.append(String.format(Locale.ROOT, " %s %.3f (%.3f–%.3f);", r.getKey(), s.median(), s.min(),
                            s.max()));
                }
            }
            t.append('\n');
        }
    }
}
