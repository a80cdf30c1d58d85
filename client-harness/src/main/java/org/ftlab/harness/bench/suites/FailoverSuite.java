package org.ftlab.harness.bench.suites;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.List;
import org.ftlab.harness.bench.BenchReport;
import org.ftlab.harness.bench.FailoverBench;
import org.ftlab.harness.bench.Plan;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;
import org.ftlab.harness.failover.Strategies;

/**
 * {@code failover}: {@link FailoverBench}'s crash and hang runs, every strategy at the first client count and the
 * pre-connected and hedged ones at the others (WildFly's cluster's baseline beside them on a lab of it), then its
 * fault-free blocks; bench.json's {@code failover} and {@code fault_free}, and {@link FailoverTable}'s tables.
 */
public final class FailoverSuite implements Suite {
    private final FailoverOptions options = new FailoverOptions();

    @Override
    public String name() {
        return "failover";
    }

    @Override
    public String description() {
        return "crashes and hangs of the primary under 1 and 10 clients with every client strategy (faulty-invocation "
                + "latency and phases, detection, restoration, hand-over, extra requests, database work), then "
                + "fault-free minutes with the single-target, hedged and active strategies in alternating blocks "
                + "(p99.9, false suspicions, the warmer's CPU).";
    }

    @Override
    public boolean byDefault() {
        return true;
    }

    @Override
    public Object options() {
        return options;
    }

    @Override
    public void checkOptions() {
        options.check();
    }

    @Override
    public boolean needsLab() {
        return true;
    }

    @Override
    public int spares() {
        return 1;
    }

    @Override
    public void checkPlan(Plan plan) {
        List<String> named = options.strategyNames();
        if (named != null && named.contains(Strategies.WILDFLY_CLUSTER) && !plan.wildflyCluster()) {
            throw new IllegalArgumentException("--failover-strategies " + Strategies.WILDFLY_CLUSTER + " needs a lab "
                    + "of WildFly's cluster: add --wildfly-cluster (or give --lab a lab started with it)");
        }
    }

    @Override
    public void run(SuiteRun run) throws Exception {
        FailoverBench bench = new FailoverBench(run.lab(), run.dir(), run.progress());
        boolean cluster = run.lab().description().wildflyCluster();
        BenchReport report = run.report();
        ArrayNode runs = report.array("failover");
        FailoverTable.header(report.table());
        List<String> all = new ArrayList<>(Strategies.ownNames());
        List<String> atOtherCounts = new ArrayList<>(List.of("preconnected", "hedged"));
        if (cluster) {
            all.add(Strategies.WILDFLY_CLUSTER);
            atOtherCounts.add(Strategies.WILDFLY_CLUSTER);
        }
        List<String> named = options.strategyNames();
        List<FailoverBench.FaultRun> done = new ArrayList<>();
        for (String kind : options.hangs > 0 ? List.of("crash", "hang") : List.of("crash")) {
            for (int i = 0; i < options.clients.size(); i++) {
                for (String strategy : all) {
                    if (named != null ? !named.contains(strategy) : i > 0 && !atOtherCounts.contains(strategy)) {
                        continue;
                    }
                    for (double shadow : options.shadows) {
                        FailoverBench.FaultRun r = bench.run(kind, strategy, options.clients.get(i),
                                kind.equals("crash") ? options.crashes : options.hangs, shadow);
                        runs.add(report.tree(r));
                        FailoverTable.row(report.table(), r);
                        done.add(r);
                    }
                }
            }
        }
        FailoverTable.baselineRatios(report.table(), done);
        if (options.faultFreeMinutes > 0) {
            List<String> faultFree = new ArrayList<>(List.of("preconnected", "hedged", "active"));
            if (cluster) {
                faultFree.add(Strategies.WILDFLY_CLUSTER);
            }
            FailoverBench.FaultFree ff = bench.faultFree(faultFree, options.faultFreeClients,
                    options.faultFreeMinutes, 4);
            report.put("fault_free", ff);
            FailoverTable.faultFree(report.table(), ff);
        }
    }
}
