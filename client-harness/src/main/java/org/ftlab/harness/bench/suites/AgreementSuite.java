package org.ftlab.harness.bench.suites;

import java.util.Locale;
import java.util.Map;
import org.ftlab.harness.bench.AgreementBench;
import org.ftlab.harness.bench.Rounds;
import org.ftlab.harness.bench.ServiceBench;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;

/**
 * {@code agreement}: {@link AgreementBench}, the bench's view and post beside a grid run at the same load on the same
 * lab, in {@code --repeat} rounds; bench.json's {@code agreement} and its table of the grid's mean over the bench's.
 */
public final class AgreementSuite implements Suite {
    @Override
    public String name() {
        return "agreement";
    }

    @Override
    public String description() {
        return "";
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
        run.progress().printf(Locale.ROOT, "agreement: %d rounds of the bench's view and post alternating with a "
                + "grid run at the same load%n", rounds.repeat());
        run.progress().flush();
        Map<String, Object> a = new AgreementBench(run.lab(), run.dir(), run.progress(), rounds.warmup())
                .run(rounds.repeat(), rounds.requests());
        run.report().put("agreement", a);
        table(run.report().table(), a);
    }

    @SuppressWarnings("unchecked")
    private static void table(StringBuilder table, Map<String, Object> a) {
        table.append(String.format(Locale.ROOT, "%nbench vs grid, same lab and load (medians over rounds; range in "
                + "brackets)%n%-8s %-5s %14s %14s %24s%n", "clients", "op", "bench mean ms", "grid mean ms",
                "grid ÷ bench"));
        for (Map.Entry<String, Object> e : a.entrySet()) {
            String[] k = e.getKey().split("/");
            Map<String, Object> f = (Map<String, Object>) e.getValue();
            ServiceBench.Spread b = (ServiceBench.Spread) f.get("bench_mean_us");
            ServiceBench.Spread g = (ServiceBench.Spread) f.get("grid_mean_us");
            ServiceBench.Spread r = (ServiceBench.Spread) f.get("grid_over_bench");
            table.append(String.format(Locale.ROOT, "%-8s %-5s %14.3f %14.3f %8.3f [%.3f–%.3f]%n", k[0], k[1],
                    b.median() / 1e3, g.median() / 1e3, r.median(), r.min(), r.max()));
        }
    }
}
