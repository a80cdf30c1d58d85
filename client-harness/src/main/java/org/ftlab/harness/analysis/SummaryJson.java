package org.ftlab.harness.analysis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.ftlab.harness.attribution.Attribution;
import org.ftlab.harness.attribution.InjectedStalls;
import org.ftlab.harness.probe.FaultRecord;

/**
 * {@code report/summary.json} and {@code report/summary.csv}: the analysis as a public interface (docs/analysis.md
 * documents every field). Fields may be added, never renamed or reordered in the CSV.
 */
final class SummaryJson {
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** The CSV columns: the documented config fields first, in order, then the later additions. */
    static final List<String> CSV_COLUMNS = List.of("config", "clients", "think_ms", "reply", "method", "count",
            "failures", "mean_us", "std_us", "min_us", "median_us", "p90_us", "p99_us", "p999_us", "max_us",
            "trimmed_mean_us", "outliers_3sigma", "c1", "p99_ci_low_us", "p99_ci_high_us", "p25_us", "p75_us",
            "outliers_3sigma_fraction", "p99_within_10x", "p99_within_25x", "middleware_mean_us", "server_mean_us",
            "database_mean_us", "top1pct_count", "top1pct_middleware_mean_us", "top1pct_server_mean_us",
            "top1pct_database_mean_us", "request_rate_per_s", "throughput_bytes_per_s", "block", "replicate",
            "rate_per_s", "warmup_rows", "steady_first_decile_mean_us", "steady_last_decile_mean_us",
            "steady_state", "co_expected_interval_us", "corrected_count", "mean_corrected_us", "p50_corrected_us",
            "p90_corrected_us", "p99_corrected_us", "p999_corrected_us", "p9999_corrected_us", "service_mean_us",
            "service_median_us", "service_p99_us", "service_max_us", "late_starts", "max_start_delay_us",
            "strategy", "replicas", "platform");

    private SummaryJson() {
    }

    static ObjectNode configNode(RunAnalysis.Entry e) {
        ObjectNode n = JSON.createObjectNode();
        n.put("config", e.config());
        n.put("clients", e.clients());
        n.put("think_ms", e.thinkMillis());
        n.put("reply", e.reply());
        n.put("method", e.method());
        LatencyStats s = e.stats();
        n.put("count", s == null ? 0 : s.count());
        n.put("failures", e.failures());
        if (s != null) {
            n.put("mean_us", s.mean());
            n.put("std_us", s.std());
            n.put("min_us", s.min());
            n.put("median_us", s.median());
            n.put("p90_us", s.p90());
            n.put("p99_us", s.p99());
            n.put("p999_us", s.p999());
            n.put("max_us", s.max());
            n.put("trimmed_mean_us", s.trimmedMean());
            n.put("outliers_3sigma", s.outliers3Sigma());
            n.put("c1", s.c1());
            putNullable(n, "p99_ci_low_us", s.p99CiLow());
            putNullable(n, "p99_ci_high_us", s.p99CiHigh());
            n.put("p25_us", s.p25());
            n.put("p75_us", s.p75());
            n.put("outliers_3sigma_fraction", (double) s.outliers3Sigma() / s.count());
            putNullable(n, "p99_within_10x", s.p99Within(10));
            putNullable(n, "p99_within_25x", s.p99Within(25));
        }
        RunAnalysis.Breakdown b = e.breakdown();
        if (b != null) {
            n.put("middleware_mean_us", b.middlewareMeanUs());
            n.put("server_mean_us", b.serverMeanUs());
            n.put("database_mean_us", b.databaseMeanUs());
            n.put("top1pct_count", b.topCount());
            n.put("top1pct_middleware_mean_us", b.topMiddlewareMeanUs());
            n.put("top1pct_server_mean_us", b.topServerMeanUs());
            n.put("top1pct_database_mean_us", b.topDatabaseMeanUs());
        }
        putNullable(n, "request_rate_per_s", e.requestRatePerS());
        putNullable(n, "throughput_bytes_per_s", e.throughputBytesPerS());
        RunAnalysis.Block b2 = e.block();
        n.put("block", b2.block());
        n.put("replicate", b2.replicate());
        putNullable(n, "rate_per_s", b2.openLoop() ? b2.ratePerS() : null);
        n.put("warmup_rows", b2.warmupRows());
        // the infrastructure factors' levels, in a run that varies them (else null: the manifest's one)
        putNullable(n, "strategy", b2.strategy());
        putNullable(n, "replicas", b2.replicas() > 0 ? b2.replicas() : null);
        putNullable(n, "platform", b2.platform());
        RunAnalysis.SteadyState st = e.steady();
        putNullable(n, "steady_first_decile_mean_us", st == null ? null : st.firstDecileMeanUs());
        putNullable(n, "steady_last_decile_mean_us", st == null ? null : st.lastDecileMeanUs());
        putNullable(n, "steady_state", st == null ? null : st.steady());
        CoordinatedOmission.Corrected c = e.corrected();
        putNullable(n, "co_expected_interval_us", c == null ? null : c.expectedIntervalUs());
        putNullable(n, "corrected_count", c == null ? null : c.count());
        putNullable(n, "mean_corrected_us", c == null ? null : c.meanUs());
        putNullable(n, "p50_corrected_us", c == null ? null : c.p50Us());
        putNullable(n, "p90_corrected_us", c == null ? null : c.p90Us());
        putNullable(n, "p99_corrected_us", c == null ? null : c.p99Us());
        putNullable(n, "p999_corrected_us", c == null ? null : c.p999Us());
        putNullable(n, "p9999_corrected_us", c == null ? null : c.p9999Us());
        RunAnalysis.OpenLoop o = e.openLoop();
        LatencyStats svc = o == null ? null : o.service();
        putNullable(n, "service_mean_us", svc == null ? null : svc.mean());
        putNullable(n, "service_median_us", svc == null ? null : svc.median());
        putNullable(n, "service_p99_us", svc == null ? null : svc.p99());
        putNullable(n, "service_max_us", svc == null ? null : svc.max());
        putNullable(n, "late_starts", o == null ? null : o.lateStarts());
        putNullable(n, "max_start_delay_us", o == null ? null : o.maxStartDelayUs());
        return n;
    }

    static String csv(RunAnalysis.Result result) {
        StringBuilder csv = new StringBuilder(String.join(",", CSV_COLUMNS)).append('\n');
        for (RunAnalysis.Entry e : result.entries()) {
            ObjectNode n = configNode(e);
            List<String> cells = new ArrayList<>();
            for (String c : CSV_COLUMNS) {
                if (!n.has(c) || n.get(c).isNull()) {
                    cells.add("");
                } else if (n.get(c).isDouble()) {
                    cells.add(String.format(Locale.ROOT, "%.3f", n.get(c).asDouble()));
                } else {
                    cells.add(n.get(c).asText());
                }
            }
            csv.append(String.join(",", cells)).append('\n');
        }
        return csv.toString();
    }

    static String json(RunAnalysis.Result result) throws JsonProcessingException {
        return JSON.writeValueAsString(tree(result));
    }

    static ObjectNode tree(RunAnalysis.Result result) {
        ObjectNode root = JSON.createObjectNode();
        root.put("percentile_estimator", LatencyStats.PERCENTILE_ESTIMATOR);
        ObjectNode run = root.putObject("run");
        run.put("failover_strategy", result.strategy());
        run.put("platform", result.platform());
        run.put("replicas", result.replicas());
        run.put("settings", result.settings());
        run.put("fault_kind", result.faultKind());
        RunAnalysis.Design d = result.design();
        run.put("arrival", d.arrival());
        run.put("order", d.order());
        putNullable(run, "seed", d.seed());
        run.put("repeat", d.repeat());
        run.put("warmup_per_client", d.warmupPerClient());
        run.put("lab_warmup_per_client", d.labWarmupPerClient());
        run.put("latency", d.openLoop() ? "client_recv_us - intended_us (open loop)"
                : "client_recv_us - client_send_us (closed loop)");
        run.put("co_correction", d.openLoop() ? "none: open-loop latency counts from the intended send time"
                : "HdrHistogram recordValueWithExpectedInterval, expected interval = think time + median latency; "
                        + "in the *_corrected_us fields only");
        ArrayNode configs = root.putArray("configs");
        for (RunAnalysis.Entry e : result.entries()) {
            configs.add(configNode(e));
        }
        ArrayNode anova = root.putArray("anova");
        for (RunAnalysis.Anova a : result.anova()) {
            ObjectNode n = anova.addObject();
            n.put("factor", a.factor());
            n.put("metric", a.metric());
            putNullable(n, "f", a.f());
            putNullable(n, "p", a.p());
        }
        ArrayNode factorial = root.putArray("anova_factorial");
        for (RunAnalysis.FactorialEffect x : result.anovaFactorial()) {
            ObjectNode n = factorial.addObject();
            n.put("effect", x.effect());
            n.put("metric", x.metric());
            n.put("df", x.df());
            n.put("sum_sq", x.sumOfSquares());
            putNullable(n, "f", x.f());
            putNullable(n, "p", x.p());
            putNullable(n, "partial_eta_sq", x.partialEtaSq());
            n.put("error_df", x.errorDf());
        }
        RunAnalysis.Regression r = result.regression();
        if (r == null) {
            root.putNull("p99_regression");
        } else {
            ObjectNode n = root.putObject("p99_regression");
            n.put("n", r.n());
            n.put("slope", r.slope());
            n.put("intercept_us", r.interceptUs());
            n.put("r", r.r());
            n.put("p", r.p());
        }
        RunAnalysis.MagicalOnePercent m = result.magical();
        ObjectNode mn = root.putObject("magical_1pct");
        mn.put("tested", m.tested());
        mn.put("p99_within_10x", m.within10x());
        mn.put("p99_within_25x", m.within25x());
        mn.put("untestable", m.untestable());
        root.set("failover", failover(result.failover()));
        RunAnalysis.OutlierTradeoff tradeoff = result.outlierTradeoff();
        if (tradeoff != null) {
            ObjectNode t = root.putObject("outlier_size_vs_count");
            t.put("what", "per block: max / mean (C1) against the share of 3-sigma outliers (C2); seed 000 Finding II");
            t.put("blocks", tradeoff.n());
            t.put("spearman_rho", tradeoff.spearmanRho());
            t.put("p", tradeoff.p());
        }
        List<RunAnalysis.LoadCorrelation> load = result.loadCorrelations();
        if (!load.isEmpty()) {
            ObjectNode l = root.putObject("outliers_vs_load");
            l.put("what", "per block: each process metric against max / mean and against the share of 3-sigma "
                    + "outliers, Spearman rho and two-sided p; seed 000 Finding IV");
            ArrayNode rows = l.putArray("metrics");
            for (RunAnalysis.LoadCorrelation c : load) {
                ObjectNode row = rows.addObject();
                row.put("metric", c.metric());
                row.put("blocks", c.n());
                // NaN (a side that cannot be ranked) is written as null
                putNullable(row, "rho_max_over_mean", nanToNull(c.rhoMaxOverMean()));
                putNullable(row, "p_max_over_mean", nanToNull(c.pMaxOverMean()));
                putNullable(row, "rho_outlier_share", nanToNull(c.rhoOutlierShare()));
                putNullable(row, "p_outlier_share", nanToNull(c.pOutlierShare()));
            }
        }
        putAttribution(root, result.attribution());
        if (result.comparison() != null) {
            root.set("compare", compare(result.comparison()));
        }
        root.set("warnings", JSON.valueToTree(result.warnings()));
        return root;
    }

    /**
     * {@code causes} (the run's slow requests counted by cause, then each block's) and {@code outliers} (every slow
     * request with its cause, share and evidence); {@code events}: whether the run recorded them, and what is missing;
     * {@code injected_stalls}: each stall the run injected on purpose, the slow requests it delayed and their causes.
     */
    private static void putAttribution(ObjectNode root, Attribution.Result a) {
        ObjectNode events = root.putObject("events");
        events.put("recorded", a.recorded());
        events.set("problems", JSON.valueToTree(a.problems()));
        ObjectNode causes = root.putObject("causes");
        causes.put("rule", "top " + Math.round(Attribution.TOP_FRACTION * 100) + "% of each block by latency; a "
                + "cause accounts for at least " + Math.round(Attribution.MIN_SHARE_OF_EXCESS * 100)
                + "% of the request's excess over its block's median");
        causes.put("outliers", a.outliers().size());
        causes.put("explained_share", a.explainedShare());
        causes.set("run", JSON.valueToTree(a.causes()));
        causes.set("unexplained_by_span", JSON.valueToTree(a.unexplainedBySpan()));
        ObjectNode blocks = causes.putObject("blocks");
        ObjectNode loads = root.putObject("block_load");
        for (Attribution.BlockCauses b : a.blocks()) {
            blocks.set(b.block(), JSON.valueToTree(b.causes()));
            loads.set(b.block(), JSON.valueToTree(b.load()));
        }
        Attribution.Timeline t = a.timeline();
        if (t != null) {
            ObjectNode tl = root.putObject("slow_timeline");
            tl.put("block", t.block());
            tl.put("from_epoch_us", t.fromUs());
            tl.put("to_epoch_us", t.toUs());
            ArrayNode bars = tl.putArray("bars");
            for (Attribution.Bar b : t.bars()) {
                ObjectNode x = bars.addObject();
                x.put("lane", b.lane());
                x.put("kind", b.kind());
                x.put("start_epoch_us", b.startUs());
                x.put("end_epoch_us", b.endUs());
                x.put("detail", b.detail());
            }
        }
        ArrayNode injected = root.putArray("injected_stalls");
        for (InjectedStalls.Verdict v : a.injected()) {
            ObjectNode n = injected.addObject();
            n.put("fault_id", v.fault().id());
            n.put("kind", v.fault().label());
            n.put("target", v.fault().target());
            n.put("replica", v.fault().replica());
            n.put("injected_epoch_us", v.fault().injectedUs());
            n.put("repaired_epoch_us", v.fault().repairedUs());
            n.put("expected_cause", v.expected());
            n.put("delayed", v.delayed());
            n.put("named", v.named());
            n.put("found", v.found());
            n.set("causes", JSON.valueToTree(v.causes()));
        }
        ArrayNode outliers = root.putArray("outliers");
        for (Attribution.Outlier o : a.outliers()) {
            ObjectNode n = outliers.addObject();
            n.put("block", o.block());
            n.put("client", o.client());
            n.put("seq", o.seq());
            n.put("method", o.method());
            n.put("send_epoch_us", o.sendEpochUs());
            n.put("latency_us", o.latencyUs());
            n.put("excess_us", o.excessUs());
            n.put("block_max", o.blockMax());
            n.put("cause", o.cause());
            n.put("explained_us", o.explainedUs());
            n.put("share", o.share());
            n.put("span", o.span());
            n.set("spans_us", JSON.valueToTree(o.spans()));
            ArrayNode ev = n.putArray("evidence");
            for (Attribution.Evidence e : o.evidence()) {
                ObjectNode x = ev.addObject();
                x.put("process", e.process());
                x.put("cause", e.cause());
                x.put("detail", e.detail());
                x.put("start_epoch_us", e.startEpochUs());
                x.put("duration_us", e.durationUs());
                x.put("overlap_us", e.overlapUs());
            }
        }
    }

    private static ObjectNode failover(FailoverAnalysis.Result f) {
        ObjectNode n = JSON.createObjectNode();
        if (f == null) {
            return n;
        }
        n.put("failover_strategy", f.strategy());
        ArrayNode faults = n.putArray("faults");
        for (FailoverAnalysis.FaultSummary s : f.faults()) {
            ObjectNode x = faults.addObject();
            FaultRecord r = s.fault();
            x.put("fault_id", r.id());
            x.put("kind", r.label());
            x.put("target", r.target());
            x.put("replica", r.replica());
            putNullable(x, "repair_us", r.repairUs());
            x.put("repair", r.repair());
            x.put("config", s.config());
            putNullable(x, "detection_us", r.detectionUs());
            putNullable(x, "promotion_us", r.promotionUs());
            putNullable(x, "restoration_us", r.restorationUs());
            if (r.sparesReady() != FaultRecord.UNKNOWN) {
                x.put("spares_ready", r.sparesReady());
            }
            if (!r.promoted().isEmpty()) {
                x.put("promoted", r.promoted());
                putNullable(x, "promoted_top_tier_share", Double.isNaN(r.promotedTopTierShare()) ? null
                        : r.promotedTopTierShare());
                putNullable(x, "promoted_hot", r.promotedHot());
            }
            x.put("faulty_invocations", s.faultyInvocations());
            x.put("failed_requests", s.failed());
            if (f.faultFree() != null) {
                x.put("requests_saw", s.outcome(f.faultFree().p99()));
            }
            x.put("overlapping_requests", s.overlapping());
            putNullable(x, "jitter_us", s.jitterUs());
            putNullable(x, "max_latency_us", s.maxLatencyUs());
            FailoverAnalysis.Handover h = s.handover();
            if (h != null) {
                ObjectNode y = x.putObject("handover");
                y.put("old_primary", h.oldReplica());
                y.put("new_primary", h.newReplica());
                y.put("old_last_median_us", h.oldMedianUs());
                y.put("new_first_median_us", h.newMedianUs());
                y.put("old_count", h.oldCount());
                y.put("new_count", h.newCount());
                y.put("ratio", h.ratio());
                putNullable(y, "back_to_speed_s", h.backToSpeedS());
            }
        }
        FailoverAnalysis.Redundancy rd = f.redundancy();
        ObjectNode red = n.putObject("redundancy");
        red.put("requests", rd.requests());
        red.put("extra_requests", rd.extraRequests());
        red.put("extra_rate", rd.extraRate());
        red.put("hedged_answers", rd.hedgedAnswers());
        red.put("false_suspicions", rd.falseSuspicions());
        red.set("answered_by", JSON.valueToTree(rd.answeredBy()));
        n.set("detection", phases(f.detection()));
        n.set("phases", phases(f.phases()));
        if (!f.phasesByStrategy().isEmpty() || !f.faultFreeByStrategy().isEmpty()) {
            ObjectNode by = n.putObject("by_strategy");
            Set<String> strategies = new TreeSet<>(f.phasesByStrategy().keySet());
            strategies.addAll(f.faultFreeByStrategy().keySet());
            for (String s : strategies) {
                ObjectNode x = by.putObject(s);
                x.set("phases", phases(f.phasesByStrategy().getOrDefault(s, List.of())));
                x.set("fault_free", stats(f.faultFreeByStrategy().get(s)));
            }
        }
        ObjectNode lat = n.putObject("latency");
        lat.set("fault_free", stats(f.faultFree()));
        lat.set("faulty", stats(f.faulty()));
        lat.set("overlapping", stats(f.overlapping()));
        putNullable(n, "jitter_min_us", f.jitterMinUs());
        putNullable(n, "jitter_max_us", f.jitterMaxUs());
        FailoverAnalysis.RecoveryVsOutliers rv = f.recoveryVsOutliers();
        if (rv != null) {
            ObjectNode x = n.putObject("recovery_vs_outliers");
            putNullable(x, "median_recovery_us", rv.medianRecoveryUs());
            putNullable(x, "max_recovery_us", rv.maxRecoveryUs());
            putNullable(x, "max_fault_free_us", rv.maxFaultFreeUs());
            x.put("fault_free_above_median_recovery", rv.faultFreeAboveMedianRecovery());
            x.set("largest_fault_free_us", JSON.valueToTree(rv.largestFaultFreeUs()));
        }
        ObjectNode perf = n.putObject("performability");
        perf.set("run", performability(f.run()));
        ArrayNode pc = perf.putArray("configs");
        for (FailoverAnalysis.Performability p : f.configs()) {
            pc.add(performability(p));
        }
        ObjectNode w = perf.putObject("demerit_weights");
        w.put("failed", f.weights().failed());
        w.put("over2s", f.weights().over2s());
        w.put("over1s", f.weights().over1s());
        w.put("excess_s", f.weights().excessSecond());
        ArrayNode tl = n.putArray("timelines");
        for (FailoverAnalysis.Timeline t : f.timelines()) {
            ObjectNode x = tl.addObject();
            x.put("fault_id", t.faultId());
            x.put("kind", t.kind());
            x.put("config", t.config());
            putNullable(x, "detected_s", t.detectedS());
            putNullable(x, "promoted_s", t.promotedS());
            putNullable(x, "restored_s", t.restoredS());
            putNullable(x, "repaired_s", t.repairedS());
            slices(x.putArray("slices"), t.slices());
            bands(x.putArray("bands"), t.bands());
        }
        ObjectNode rt = n.putObject("run_timeline");
        slices(rt.putArray("slices"), f.runTimeline().slices());
        bands(rt.putArray("bands"), f.runTimeline().bands());
        return n;
    }

    private static void slices(ArrayNode out, List<FailoverAnalysis.Slice> slices) {
        for (FailoverAnalysis.Slice s : slices) {
            ObjectNode y = out.addObject();
            y.put("second", s.second());
            putNullable(y, "p50_ms", s.p50Ms());
            putNullable(y, "p99_ms", s.p99Ms());
            putNullable(y, "max_ms", s.maxMs());
            y.put("completed", s.completed());
        }
    }

    private static void bands(ArrayNode out, List<FailoverAnalysis.Band> bands) {
        for (FailoverAnalysis.Band b : bands) {
            ObjectNode y = out.addObject();
            y.put("fault_id", b.faultId());
            y.put("kind", b.kind());
            y.put("target", b.target());
            y.put("from_s", b.fromS());
            y.put("to_s", b.toS());
        }
    }

    private static ObjectNode performability(FailoverAnalysis.Performability p) {
        ObjectNode x = JSON.createObjectNode();
        x.put("config", p.config());
        x.put("requests", p.requests());
        x.put("failed", p.failed());
        x.put("faulty_invocations", p.faultyInvocations());
        putNullable(x, "goodput", p.goodput());
        putNullable(x, "punctuality", p.punctuality());
        x.put("p_over_100ms", p.pOver100ms());
        x.put("p_over_1s", p.pOver1s());
        x.put("p_over_2s", p.pOver2s());
        x.put("demerits", p.demerits());
        FailoverAnalysis.CorrectedPerformability c = p.corrected();
        putNullable(x, "p_over_100ms_corrected", c == null ? null : c.pOver100ms());
        putNullable(x, "p_over_1s_corrected", c == null ? null : c.pOver1s());
        putNullable(x, "p_over_2s_corrected", c == null ? null : c.pOver2s());
        putNullable(x, "punctuality_corrected", c == null ? null : c.punctuality());
        return x;
    }

    private static ArrayNode phases(List<FailoverAnalysis.PhaseStats> list) {
        ArrayNode a = JSON.createArrayNode();
        for (FailoverAnalysis.PhaseStats p : list) {
            ObjectNode x = a.addObject();
            x.put("name", p.phase());
            x.put("count", p.count());
            x.put("mean_us", p.meanUs());
            x.put("median_us", p.medianUs());
            x.put("min_us", p.minUs());
            x.put("max_us", p.maxUs());
        }
        return a;
    }

    private static ObjectNode stats(LatencyStats s) {
        ObjectNode x = JSON.createObjectNode();
        x.put("count", s == null ? 0 : s.count());
        if (s != null) {
            x.put("mean_us", s.mean());
            x.put("std_us", s.std());
            x.put("min_us", s.min());
            x.put("median_us", s.median());
            x.put("p99_us", s.p99());
            x.put("max_us", s.max());
        }
        return x;
    }

    private static ObjectNode compare(RunComparison c) {
        ObjectNode x = JSON.createObjectNode();
        x.put("other_run", c.otherRun());
        x.put("other_failover_strategy", c.otherStrategy());
        putNullable(x, "median_mean_ratio", c.medianMeanRatio());
        putNullable(x, "median_p99_ratio", c.medianP99Ratio());
        ArrayNode rows = x.putArray("configs");
        for (RunComparison.Row r : c.rows()) {
            ObjectNode y = rows.addObject();
            y.put("config", r.config());
            y.put("method", r.method());
            y.put("mean_us", r.meanUs());
            y.put("other_mean_us", r.otherMeanUs());
            y.put("mean_ratio", r.meanRatio());
            y.put("p99_us", r.p99Us());
            y.put("other_p99_us", r.otherP99Us());
            y.put("p99_ratio", r.p99Ratio());
            y.put("max_us", r.maxUs());
            y.put("other_max_us", r.otherMaxUs());
            y.put("max_ratio", r.maxRatio());
        }
        ArrayNode ph = x.putArray("phases");
        for (RunComparison.PhasePair p : c.phases()) {
            ObjectNode y = ph.addObject();
            y.put("name", p.phase());
            putNullable(y, "median_us", p.medianUs());
            putNullable(y, "other_median_us", p.otherMedianUs());
        }
        if (c.thisRun() != null) {
            x.set("performability", performability(c.thisRun()));
        }
        if (c.otherRunPerformability() != null) {
            x.set("other_performability", performability(c.otherRunPerformability()));
        }
        return x;
    }

    private static Double nanToNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    static void putNullable(ObjectNode n, String field, Object v) {
        if (v == null) {
            n.putNull(field);
        } else if (v instanceof Long l) {
            n.put(field, l);
        } else if (v instanceof Integer i) {
            n.put(field, i);
        } else if (v instanceof Double d) {
            n.put(field, d);
        } else if (v instanceof Boolean b) {
            n.put(field, b);
        } else {
            n.put(field, v.toString());
        }
    }
}
