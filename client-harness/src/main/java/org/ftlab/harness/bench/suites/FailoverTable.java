package org.ftlab.harness.bench.suites;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ftlab.harness.analysis.FailoverAnalysis;
import org.ftlab.harness.bench.FailoverBench;
import org.ftlab.harness.failover.Strategies;

/** The fail-over suite's part of the printed table: a row per crash or hang run, the baseline's ratios, the blocks. */
final class FailoverTable {
    private FailoverTable() {
    }

    /** The heading and column names of the rows of {@link #row}. */
    static void header(StringBuilder t) {
        t.append(String.format(Locale.ROOT, "%nfail-over (medians; max in brackets)%n%-50s %6s %18s %10s %10s "
                + "%10s %9s %10s %9s %7s %6s %7s %10s%n", "run", "faulty", "faulty invocation", "detection",
                "fail-over", "retry", "FD detect", "restored", "hand-over", "back", "hot", "extra", "DB stmts/req"));
    }

    /** One crash or hang run. */
    static void row(StringBuilder t, FailoverBench.FaultRun r) {
        String name = r.kind() + ", " + r.strategy() + ", " + r.clients() + " client" + (r.clients() == 1 ? "" : "s")
                + ", " + r.faultsInjected() + " faults" + (r.shadowShare() > 0 ? ", shadow " + r.shadowShare() : "");
        t.append(String.format(Locale.ROOT, "%-50s %6s %18s %10s %10s %10s %9s %10s %9s %7s %6s %6.2f%% %10.2f%n",
                name,
                r.faultyInvocations(), medMax(r.faultyInvocation()), med(r.detection()), med(r.failover()),
                med(r.retry()), med(r.fdDetection()), r.degreeRestoredUs() == null ? "-"
                        : String.format(Locale.ROOT, "%.1f s", r.degreeRestoredUs().median() / 1e6),
                r.handoverRatio() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.handoverRatio().median()),
                (r.backToSpeedS() == null ? "-" : String.format(Locale.ROOT, "%.0f s", r.backToSpeedS().median()))
                        + (r.neverBackToSpeed() > 0 ? "+" + r.neverBackToSpeed() : ""),
                r.promotedHot() + "/" + r.promotedRead(), 100 * r.redundancy().extraRate(),
                r.databasePerRequest().getOrDefault("Questions", 0.0)));
    }

    /**
     * Per fault kind and client count where the baseline ran: the faulty-invocation median of ftlab's best strategy
     * divided by WildFly's cluster's (below 1: ftlab's fail-over is faster).
     */
    static void baselineRatios(StringBuilder t, List<FailoverBench.FaultRun> runs) {
        for (FailoverBench.FaultRun base : runs) {
            if (!base.strategy().equals(Strategies.WILDFLY_CLUSTER) || base.shadowShare() > 0
                    || base.faultyInvocation() == null) {
                continue;
            }
            FailoverBench.FaultRun best = null;
            for (FailoverBench.FaultRun r : runs) {
                if (r.kind().equals(base.kind()) && r.clients() == base.clients() && r.shadowShare() == 0
                        && !r.strategy().equals(Strategies.WILDFLY_CLUSTER) && r.faultyInvocation() != null
                        && (best == null || r.faultyInvocation().medianUs() < best.faultyInvocation().medianUs())) {
                    best = r;
                }
            }
            if (best != null) {
                t.append(String.format(Locale.ROOT, "%s, %d client%s: faulty invocation median, ftlab's best (%s) "
                        + "÷ %s: %.3f (%.1f ms ÷ %.1f ms)%n", base.kind(), base.clients(),
                        base.clients() == 1 ? "" : "s", best.strategy(), Strategies.WILDFLY_CLUSTER,
                        (double) best.faultyInvocation().medianUs() / base.faultyInvocation().medianUs(),
                        best.faultyInvocation().medianUs() / 1e3, base.faultyInvocation().medianUs() / 1e3));
            }
        }
    }

    /** The fault-free blocks: a row per strategy, then its ratios to WildFly's cluster's and to pre-connected. */
    static void faultFree(StringBuilder t, FailoverBench.FaultFree ff) {
        t.append(String.format(Locale.ROOT, "%nfault-free: %d clients, no think time, %.1f minutes in %d blocks of "
                + "%.0f s (strategies alternating, order reversed every round); %d false suspicions in all%n%-13s "
                + "%9s %9s %9s %9s %9s %7s %6s %12s %12s %10s%n", ff.clients(), ff.minutes(), ff.blocks(),
                ff.blockSeconds(), ff.falseSuspicions(), "strategy", "requests", "median", "p99", "p99.9", "max",
                "extra", "false", "DB stmts/req", "rollbacks/req", "idle CPU"));
        for (Map.Entry<String, FailoverBench.FaultFreeStrategy> e : ff.strategies().entrySet()) {
            FailoverBench.FaultFreeStrategy x = e.getValue();
            t.append(String.format(Locale.ROOT, "%-13s %9d %7.2fms %7.2fms %7.2fms %7.1fms %6.2f%% %6d %12.2f "
                    + "%12.2f %9.1f%%%n", e.getKey(), x.redundancy().requests(), x.medianUs() / 1e3,
                    x.p99Us() / 1e3, x.p999Us() / 1e3, x.maxUs() / 1e3, 100 * x.redundancy().extraRate(),
                    x.redundancy().falseSuspicions(), x.databasePerRequest().getOrDefault("Questions", 0.0),
                    x.databasePerRequest().getOrDefault("Com_rollback", 0.0),
                    100 * x.idleReplicasCpuFractionOfACore()));
        }
        FailoverBench.FaultFreeStrategy cluster = ff.strategies().get(Strategies.WILDFLY_CLUSTER);
        FailoverBench.FaultFreeStrategy hedged = ff.strategies().get("hedged");
        if (cluster != null && hedged != null) {
            t.append(String.format(Locale.ROOT, "hedged ÷ %s: mean %.3f, p99 %.3f, p99.9 %.3f%n",
                    Strategies.WILDFLY_CLUSTER, hedged.meanUs() / cluster.meanUs(),
                    (double) hedged.p99Us() / cluster.p99Us(), (double) hedged.p999Us() / cluster.p999Us()));
        }
        FailoverBench.FaultFreeStrategy base = ff.strategies().get("preconnected");
        if (base != null) {
            for (String s : List.of("hedged", "active")) {
                FailoverBench.FaultFreeStrategy x = ff.strategies().get(s);
                if (x != null) {
                    t.append(String.format(Locale.ROOT, "p99.9 %s ÷ preconnected: %.3f (p99 %.3f) at %.2f%% extra "
                            + "requests%n", s, (double) x.p999Us() / base.p999Us(), (double) x.p99Us() / base.p99Us(),
                            100 * x.redundancy().extraRate()));
                }
            }
        }
    }

    private static String med(FailoverAnalysis.PhaseStats p) {
        return p == null ? "-" : String.format(Locale.ROOT, "%.1f ms", p.medianUs() / 1e3);
    }

    private static String medMax(FailoverAnalysis.PhaseStats p) {
        return p == null ? "-" : String.format(Locale.ROOT, "%.1f (%.0f) ms", p.medianUs() / 1e3, p.maxUs() / 1e3);
    }
}
