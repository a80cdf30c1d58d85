package org.ftlab.harness.analysis;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.ftlab.harness.attribution.Attribution;
import org.ftlab.harness.attribution.InjectedStalls;
import org.ftlab.harness.probe.DatabaseFailoverRecord;
import org.ftlab.harness.probe.ManagerFailoverRecord;
import org.ftlab.harness.probe.DatabaseWorkRecord;
import org.ftlab.harness.probe.StatefulTierRecord;
import org.ftlab.harness.workload.RunColumns;

/** The analysis as text on a terminal: what {@code ftlab analyze} and the demo print. */
public final class TextReport {
    private TextReport() {
    }

    /** The headline table, the ANOVA, the magical 1%, and the fail-over and comparison summaries. */
    public static void print(PrintWriter out, RunAnalysis.Result result) {
        for (String w : result.warnings()) {
            out.println("warning: " + w);
        }
        RunAnalysis.Design design = result.design();
        out.printf(Locale.ROOT, "strategy %s, platform %s, replicas %s%n", result.strategy(), result.platform(),
                result.replicas());
        out.printf(Locale.ROOT, "%s arrivals, %s order%s, %d replicate%s, %d warm-up requests per client; latency = "
                + "%s%n", design.arrival(), design.order(), design.seed() == null ? "" : " (seed " + design.seed() + ")", design.repeat(),
                design.repeat() == 1 ? "" : "s", design.warmupPerClient(), design.openLoop() ? "receive − intended send"
                        : "receive − send");
        String extra = design.openLoop() ? "svc p99 ms" : "p99 corr ms";
        // as wide as the longest block name (a run that varies the infrastructure names its levels in them)
        String blockCol = "%-" + Math.max(19, result.entries().stream().mapToInt(x -> x.label().length()).max()
                .orElse(0)) + "s";
        out.printf(Locale.ROOT, blockCol + " %7s %5s %9s %9s %9s %17s %9s %7s %3s %7s %7s %11s %s%n", "block", "count",
                "fail", "mean ms", "p99 ms", "max ms", "p99 99% CI ms", "req/s", "3σ out", "C1", "p99≤10×", "p99≤25×",
                extra, "steady");
        for (RunAnalysis.Entry e : result.entries()) {
            if (!e.method().equals("all")) {
                continue;
            }
            LatencyStats s = e.stats();
            if (s == null) {
                out.printf(Locale.ROOT, blockCol + " %7d %5d every request failed%n", e.label(), 0, e.failures());
                continue;
            }
            String ci = s.p99CiLow() == null ? "n too small" : String.format(Locale.ROOT, "%.2f–%.2f",
                    s.p99CiLow() / 1000.0, s.p99CiHigh() / 1000.0);
            String second = e.openLoop() != null && e.openLoop().service() != null
                    ? String.format(Locale.ROOT, "%.3f", e.openLoop().service().p99() / 1000.0)
                    : e.corrected() != null ? String.format(Locale.ROOT, "%.3f", e.corrected().p99Us() / 1000.0) : "-";
            String steady = e.steady() == null ? "-" : e.steady().steady() ? "yes"
                    : String.format(Locale.ROOT, "NO (%.1f×)", e.steady().ratio());
            out.printf(Locale.ROOT, blockCol + " %7d %5d %9.3f %9.3f %9.3f %17s %9s %7d %3s %7s %7s %11s %s%n", e.label(),
                    s.count(), e.failures(), s.mean() / 1000.0, s.p99() / 1000.0, s.max() / 1000.0, ci,
                    e.requestRatePerS() == null ? "-" : String.format(Locale.ROOT, "%.0f", e.requestRatePerS()),
                    s.outliers3Sigma(), s.c1() ? "yes" : "no", Format.yesNo(s.p99Within(10)), Format.yesNo(s.p99Within(25)),
                    second, steady);
        }
        RunAnalysis.MagicalOnePercent m = result.magical();
        out.printf(Locale.ROOT, "magical 1%%: p99 ≤ 10×mean (at p < 0.01) in %d of %d testable configurations, "
                + "≤ 25× in %d; %d configurations have too few requests (< 528)%n", m.within10x(), m.tested(), m.within25x(),
                m.untestable());
        RunAnalysis.OutlierTradeoff tradeoff = result.outlierTradeoff();
        if (tradeoff != null) {
            out.printf(Locale.ROOT, "outliers' size vs number (seed 000 Finding II): max ÷ mean against the share of 3σ "
                    + "outliers over %d blocks, Spearman ρ = %.3f (p %s)%n", tradeoff.n(), tradeoff.spearmanRho(),
                    tradeoff.p() < 1e-16 ? "< 1e-16" : String.format(Locale.ROOT, "= %.3g", tradeoff.p()));
        }
        List<RunAnalysis.LoadCorrelation> load = result.loadCorrelations();
        if (!load.isEmpty()) {
            RunAnalysis.LoadCorrelation strongest = load.stream().filter(c -> !Double.isNaN(c.rhoMaxOverMean()))
                    .max(Comparator.comparingDouble(c -> Math.abs(c.rhoMaxOverMean()))).orElse(load.get(0));
            out.printf(Locale.ROOT, "outliers vs the processes' load (seed 000 Finding IV): %d metrics over the blocks; "
                    + "the strongest with max ÷ mean: %s, ρ = %.3f (p = %.3g); all in summary.json outliers_vs_load%n",
                    load.size(), strongest.metric(), strongest.rhoMaxOverMean(), strongest.pMaxOverMean());
        }
        Attribution.Result why = result.attribution();
        if (why.recorded()) {
            out.printf(Locale.ROOT, "why the slowest 1%% were slow: %d of %d named (%.0f%%): %s%n",
                    why.outliers().stream().filter(Attribution.Outlier::explained).count(), why.outliers().size(),
                    100 * why.explainedShare(), why.causes().entrySet().stream()
                            .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                            .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
            Map<String, Integer> bySpan = why.unexplainedBySpan();
            if (!bySpan.isEmpty()) {
                out.printf(Locale.ROOT, "  the unexplained by the span their time went to: %s%n", bySpan.entrySet()
                        .stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
            }
            for (InjectedStalls.Verdict v : why.injected()) {
                out.printf(Locale.ROOT, "  stall %s %s%s: %s%n", v.fault().id(), v.fault().label(),
                        v.fault().replica() == null || v.fault().replica().isEmpty() ? "" : " (" + v.fault().replica()
                                + ")", v.delayed() == 0 ? "delayed no slow request"
                                : (v.found() ? "found" : "MISSED") + ", " + v.named() + " of " + v.delayed()
                                        + " slow requests it delayed named " + v.expected() + " " + v.causes());
            }
        }
        RunAnalysis.Regression g = result.regression();
        if (g != null) {
            // Commons Math reports p as 0 below double precision: say "< 1e-16" rather than "0".
            out.printf(Locale.ROOT, "p99 ≈ %.3f·mean %s %.0f µs (r = %.3f, p %s %.3g, n = %d)%n", g.slope(),
                    g.interceptUs() < 0 ? "−" : "+", Math.abs(g.interceptUs()), g.r(), g.p() == 0 ? "<" : "=",
                    g.p() == 0 ? 1e-16 : g.p(), g.n());
        }
        if (!result.anovaFactorial().isEmpty()) {
            out.printf(Locale.ROOT, "factorial ANOVA (Type II; error df %d): F, p, partial η²%n",
                    result.anovaFactorial().get(0).errorDf());
            for (RunAnalysis.FactorialEffect x : result.anovaFactorial()) {
                out.printf(Locale.ROOT, "  %-22s %-5s df=%-3d %s%n", x.effect(), x.metric(), x.df(), x.f() == null
                        ? "not testable" : String.format(Locale.ROOT, "F=%.3f p=%.3g η²p=%.3f", x.f(), x.p(),
                                x.partialEtaSq()));
            }
        } else {
            out.println("ANOVA (F, p) across configurations:");
            for (RunAnalysis.Anova a : result.anova()) {
                out.printf(Locale.ROOT, "  %-10s %-5s %s%n", a.factor(), a.metric(), a.f() == null ? "not testable"
                        : String.format(Locale.ROOT, "F=%.3f p=%.3g", a.f(), a.p()));
            }
        }
        FailoverAnalysis.Result f = result.failover();
        if (f != null && (f.redundancy().extraRequests() > 0 || f.redundancy().falseSuspicions() > 0)) {
            FailoverAnalysis.Redundancy rd = f.redundancy();
            out.printf(Locale.ROOT, "redundancy (%s): %d extra requests for %d (%.2f%%), %d answered by a hedge or an "
                    + "active replica, %d false suspicions; answered by %s%n", f.strategy(), rd.extraRequests(),
                    rd.requests(), 100 * rd.extraRate(), rd.hedgedAnswers(), rd.falseSuspicions(), rd.answeredBy());
        }
        if (f != null && f.hasFaults()) {
            out.printf(Locale.ROOT, "fail-over (%s): %d faults", f.strategy(), f.faults().size());
            for (FailoverAnalysis.PhaseStats d : f.detection()) {
                out.printf(Locale.ROOT, "; %s detected in median %.1f ms (max %.1f)", d.phase(), d.medianUs() / 1e3,
                        d.maxUs() / 1e3);
            }
            out.println();
            for (FailoverAnalysis.PhaseStats p : f.phases()) {
                out.printf(Locale.ROOT, "  %-9s n=%-5d mean %8.1f ms  median %8.1f ms  min %8.1f  max %8.1f%n",
                        p.phase(), p.count(), p.meanUs() / 1e3, p.medianUs() / 1e3, p.minUs() / 1e3,
                        p.maxUs() / 1e3);
            }
            Set<String> strategies = new TreeSet<>(f.phasesByStrategy().keySet());
            strategies.addAll(f.faultFreeByStrategy().keySet());
            for (String s : strategies) {
                out.printf(Locale.ROOT, "  %s:", s);
                for (FailoverAnalysis.PhaseStats p : f.phasesByStrategy().getOrDefault(s, List.of())) {
                    out.printf(Locale.ROOT, " %s median %.1f ms%s", p.phase(), p.medianUs() / 1e3,
                            p.phase().equals("total") ? " (n=" + p.count() + ", max " + Format.ms(p.maxUs()) + " ms);"
                                    : ",");
                }
                LatencyStats ff = f.faultFreeByStrategy().get(s);
                if (ff != null) {
                    out.printf(Locale.ROOT, " fault-free mean %.2f ms, p99 %.2f ms (n=%d)", ff.mean() / 1e3,
                            ff.p99() / 1e3, ff.count());
                }
                out.println();
            }
            for (FailoverAnalysis.FaultSummary s : f.faults()) {
                FailoverAnalysis.Handover h = s.handover();
                if (h != null) {
                    out.printf(Locale.ROOT, "  hand-over %s: %s's last %d median %.2f ms, %s's first %d median %.2f ms "
                            + "(x%.2f), back within 1.2x after %s%s%n", s.fault().id(), h.oldReplica(), h.oldCount(),
                            h.oldMedianUs() / 1e3, h.newReplica(), h.newCount(), h.newMedianUs() / 1e3, h.ratio(),
                            h.backToSpeed(),
                            s.fault().promotedHotness() == null ? ""
                                    : "; request path at the top tier when promoted: " + s.fault().promotedHotness());
                }
            }
            FailoverAnalysis.Performability p = f.run();
            out.printf(Locale.ROOT, "performability: goodput %s, punctuality %s, P(>0.1 s) %.3f%%, P(>1 s) %.3f%%, "
                    + "P(>2 s) %.3f%%, demerits %.1f%n", Format.number(p.goodput()), Format.number(p.punctuality()),
                    100 * p.pOver100ms(), 100 * p.pOver1s(), 100 * p.pOver2s(), p.demerits());
            if (p.corrected() != null) {
                out.printf(Locale.ROOT, "  corrected for coordinated omission: punctuality %s, P(>0.1 s) %.3f%%, "
                        + "P(>1 s) %.3f%%, P(>2 s) %.3f%%%n", Format.number(p.corrected().punctuality()),
                        100 * p.corrected().pOver100ms(), 100 * p.corrected().pOver1s(),
                        100 * p.corrected().pOver2s());
            }
        }
        RunComparison c = result.comparison();
        if (c != null) {
            out.printf(Locale.ROOT, "compared with %s (%s): median ratio of means %s, of p99 %s%n", c.otherRun(),
                    c.otherStrategy(), Format.number(c.medianMeanRatio()), Format.number(c.medianP99Ratio()));
            for (RunComparison.PhasePair pp : c.phases()) {
                out.printf(Locale.ROOT, "  %-9s median %s ms vs %s ms%n", pp.phase(), Format.ms(pp.medianUs()),
                        Format.ms(pp.otherMedianUs()));
            }
        }
        out.flush();
    }

    /** The stateful tier's lines of a run's report, if the run was on it. */
    public static void printStatefulTier(PrintWriter out, Path runDir) throws IOException {
        StatefulTierRecord tier = StatefulTierRecord.readFrom(runDir);
        if (tier != null) {
            StatefulTierSection.print(out, tier);
        }
    }

    /** The database's fail-overs line of a run's report, if the run was on a replicated database. */
    public static void printDatabaseFailovers(PrintWriter out, Path runDir) throws IOException {
        DatabaseFailoverRecord r = DatabaseFailoverRecord.readFrom(runDir);
        if (r != null) {
            DatabaseFailoverSection.print(out, r);
        }
    }

    /** The managers' fail-overs lines of a run's report, if the run was on a lab of several managers. */
    public static void printManagerFailovers(PrintWriter out, Path runDir) throws IOException {
        ManagerFailoverRecord r = ManagerFailoverRecord.readFrom(runDir);
        if (r != null) {
            ManagerFailoverSection.print(out, r);
        }
    }

    /** The database's work line of a run's report, if the run recorded it. */
    public static void printDatabaseWork(PrintWriter out, Path runDir) throws IOException {
        DatabaseWorkRecord db = DatabaseWorkRecord.readFrom(runDir);
        if (db != null) {
            DatabaseWorkSection.print(out, db);
        }
    }

    /** The side-by-side table: one row per run. */
    public static void printSideBySide(PrintWriter out, List<SideBySide.Row> rows) {
        out.printf(Locale.ROOT, "%-24s %-24s %8s %6s %8s %8s %9s %7s %10s %7s %10s %8s %8s %8s %s%n", "run",
                "strategy", "requests", "failed", "mean ms", "p99 ms", "detect ms", "cleared", "unprovoked", "faulty",
                "faulty ms", "goodput", "punctual", "demerits", "audit");
        for (SideBySide.Row r : rows) {
            out.printf(Locale.ROOT, "%-24s %-24s %8d %6d %8s %8s %9s %7s %10d %7d %10s %8s %8s %8s %s%n", r.run(),
                    r.strategy(), r.requests(), r.failed(), Format.number(r.meanMs()), Format.number(r.p99Ms()), Format.number(r.detectionMs()),
                    r.clearedSuspicions() == null ? "-" : r.clearedSuspicions().toString(), r.unprovokedFailures(),
                    r.faultyInvocations(),
                    Format.number(r.failoverMs()), Format.number(r.goodput()), Format.number(r.punctuality()), Format.number(r.demerits()), r.audit());
        }
        if (rows.stream().anyMatch(r -> r.databaseStatementsPerRequest() != null
                || r.figures().stream().anyMatch(f -> f != null))) {
            RunColumns columns = SideBySide.columns();
            StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-24s", "run"));
            columns.labels().forEach(l -> header.append(String.format(Locale.ROOT, " %-26s", l.heading())));
            header.append(String.format(Locale.ROOT, " %10s %12s", "requests/s", "db stmts/req"));
            columns.figures().forEach(f -> header.append(String.format(Locale.ROOT, " %12s", f.brief())));
            out.println(header);
            for (SideBySide.Row r : rows) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-24s", r.run()));
                r.labels().forEach(l -> line.append(String.format(Locale.ROOT, " %-26s", l)));
                line.append(String.format(Locale.ROOT, " %10s %12s", Format.number(r.requestRatePerS()),
                        Format.number(r.databaseStatementsPerRequest())));
                r.figures().forEach(f -> line.append(String.format(Locale.ROOT, " %12s", Format.number(f))));
                out.println(line);
            }
        }
        out.flush();
    }
}
