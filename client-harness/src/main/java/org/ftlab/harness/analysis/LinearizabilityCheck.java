package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.ftlab.harness.history.HistoryEvent;
import org.ftlab.harness.history.HistoryFiles;
import org.ftlab.harness.history.check.HistoryCheck;
import org.ftlab.harness.history.check.Linearizability;
import org.ftlab.harness.history.check.Model;
import org.ftlab.harness.history.check.Operation;
import org.ftlab.harness.probe.Manifest;
import org.ftlab.harness.workload.Workload;
import org.ftlab.harness.workload.Workloads;
import org.ftlab.os.AtomicFiles;

/**
 * A run's history checked for linearizability against its workload's model ({@link Workload#model()}): the verdict
 * printed, and written as {@code check.json} in the run directory for the report (docs/analysis.md).
 */
public final class LinearizabilityCheck {
    /** The file the verdict is written to, in the run directory. */
    public static final String FILE = "check.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Invalid or unknown keys described in full; the rest are counted. */
    private static final int KEYS_DESCRIBED = 10;
    private static final int SHOWN_CHARS = 160;

    private LinearizabilityCheck() {
    }

    /** Checks {@code runDir}'s history within {@code limits}; writes {@code check.json}; returns the report. */
    public static HistoryCheck.Report run(Path runDir, HistoryCheck.Limits limits) throws IOException,
            InterruptedException {
        if (!Files.isDirectory(runDir) || !Manifest.existsIn(runDir)) {
            throw new IllegalArgumentException(runDir + " is not a run directory (no " + Manifest.FILE
                    + "): give the --out directory of an ftlab grid run");
        }
        Manifest m = Manifest.readAny(runDir);
        Workload workload = Workloads.named(m.workload(), m.workloadParameters());
        Model<?> model = workload.model();
        if (model == null) {
            throw new IllegalArgumentException("workload " + m.workload() + " has no model to check a history "
                    + "against");
        }
        List<HistoryEvent> history = HistoryFiles.readRun(runDir);
        HistoryCheck.Report report = HistoryCheck.check(history, model, limits);
        AtomicFiles.write(runDir.resolve(FILE), JSON.writeValueAsString(toJson(report, model)));
        return report;
    }

    /** The verdict in JSON: the run's, then each key that is not valid, with its anomaly. */
    static ObjectNode toJson(HistoryCheck.Report r, Model<?> model) {
        ObjectNode o = JSON.createObjectNode();
        o.put("model", r.model());
        o.put("verdict", r.verdict().wireName());
        o.put("operations", r.operations());
        o.put("unknown_outcome", r.unknown());
        o.put("failed_left_out", r.failed());
        ObjectNode skipped = o.putObject("not_modelled");
        r.skipped().forEach(skipped::put);
        o.put("keys", r.keys().size());
        o.put("keys_valid", count(r, Linearizability.Verdict.VALID));
        o.put("keys_invalid", count(r, Linearizability.Verdict.INVALID));
        o.put("keys_unknown", count(r, Linearizability.Verdict.UNKNOWN));
        o.put("seconds", Math.round(r.seconds() * 1000) / 1000.0);
        ArrayNode keys = o.putArray("not_valid");
        for (HistoryCheck.KeyResult k : r.keys()) {
            if (k.result().verdict() == Linearizability.Verdict.VALID || keys.size() >= KEYS_DESCRIBED) {
                continue;
            }
            ObjectNode kj = keys.addObject();
            kj.put("key", k.key());
            kj.put("verdict", k.result().verdict().wireName());
            kj.put("operations", k.result().operations());
            kj.put("configurations", k.result().configurations());
            if (k.result().why() != null) {
                kj.put("why", k.result().why());
            }
            Linearizability.Anomaly a = k.result().anomaly();
            if (a != null) {
                ObjectNode aj = kj.putObject("anomaly");
                aj.put("explanation", a.explanation());
                aj.put("state", a.state());
                aj.set("operation", op(a.blocked(), model));
                ArrayNode before = aj.putArray("placed_before");
                a.placedBefore().forEach(p -> before.add(op(p, model)));
                ArrayNode concurrent = aj.putArray("concurrent");
                a.concurrent().forEach(p -> concurrent.add(op(p, model)));
            }
        }
        return o;
    }

    private static long count(HistoryCheck.Report r, Linearizability.Verdict v) {
        return r.keys().stream().filter(k -> k.result().verdict() == v).count();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static ObjectNode op(Operation p, Model model) {
        ObjectNode o = JSON.createObjectNode();
        o.put("process", p.invoke().process());
        o.put("client", p.invoke().client());
        o.put("seq", p.invoke().seq());
        o.put("f", p.invoke().f());
        o.put("what", model.show(p.input(), p.output()));
        o.put("invoke_index", p.callIndex());
        o.put("invoke_time_ns", p.invoke().timeNanos());
        if (p.completion() != null) {
            o.put("type", p.completion().type().wireName());
            o.put("complete_index", p.completion().index());
            o.put("complete_time_ns", p.completion().timeNanos());
            if (p.completion().replica() != null) {
                o.put("replica", p.completion().replica());
            }
            if (p.completion().fault() != null) {
                o.put("fault", p.completion().fault());
            }
        } else {
            o.put("type", "never completed");
        }
        return o;
    }

    /** The verdict as a few lines of text: the run's, then each key that is not valid. */
    public static void print(PrintWriter out, HistoryCheck.Report r) {
        out.printf(Locale.ROOT, "linearizability (%s): %s - %,d operations on %,d keys (%,d of unknown outcome, %,d "
                + "failed and left out%s), checked in %.1f s%n", r.model(), r.verdict().wireName().toUpperCase(
                        Locale.ROOT), r.operations(), r.keys().size(), r.unknown(), r.failed(),
                r.skipped().isEmpty() ? "" : ", not modelled: " + r.skipped(), r.seconds());
        int shown = 0;
        for (HistoryCheck.KeyResult k : r.keys()) {
            Linearizability.Result res = k.result();
            if (res.verdict() == Linearizability.Verdict.VALID || shown++ >= KEYS_DESCRIBED) {
                continue;
            }
            if (res.verdict() == Linearizability.Verdict.UNKNOWN) {
                out.printf(Locale.ROOT, "  key %s: unknown, %s (%,d operations)%n", k.key(), res.why(),
                        res.operations());
                continue;
            }
            Linearizability.Anomaly a = res.anomaly();
            Operation b = a.blocked();
            out.printf(Locale.ROOT, "  key %s: INVALID, %s%n", k.key(), a.explanation());
            out.printf(Locale.ROOT, "    the operation: %s%n", line(b));
            out.printf(Locale.ROOT, "    the state every order reaches before it: %s%n", a.state());
            for (Operation p : a.placedBefore()) {
                out.printf(Locale.ROOT, "    placed before it: %s%n", line(p));
            }
            for (Operation p : a.concurrent()) {
                out.printf(Locale.ROOT, "    in flight with it: %s%n", line(p));
            }
        }
    }

    private static String line(Operation p) {
        HistoryEvent i = p.invoke();
        HistoryEvent c = p.completion();
        return String.format(Locale.ROOT, "process %d (%s #%d) %s %s, invoked at %.3f s%s", i.process(), i.client(),
                i.seq(), i.f(), i.value() == null ? "" : shorten(i.value().toString()), i.timeNanos() / 1e9,
                c == null ? ", never completed" : String.format(Locale.ROOT, ", %s at %.3f s%s%s: %s",
                        c.type().wireName(), c.timeNanos() / 1e9, c.replica() == null ? "" : " from " + c.replica(),
                        c.fault() == null ? "" : " (fault " + c.fault() + ")",
                        c.value() == null ? "" : shorten(c.value().toString())));
    }

    /** A value of at most {@value #SHOWN_CHARS} characters, for a line of text (the history has it whole). */
    private static String shorten(String value) {
        return value.length() <= SHOWN_CHARS ? value : value.substring(0, SHOWN_CHARS) + "… (" + value.length()
                + " characters)";
    }
}
