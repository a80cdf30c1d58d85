package org.ftlab.harness.workload;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every registered workload's options on one command line: added to the command as mixins (one per workload that
 * has options, named by it), then asked, once the line is parsed, which workload it runs and with which parameters.
 */
public final class WorkloadOptionSet {
    /** The options of each workload that has some, by its name, in the order of the names. */
    private final Map<String, WorkloadOptions> byWorkload;

    private WorkloadOptionSet(Map<String, WorkloadOptions> byWorkload) {
        this.byWorkload = byWorkload;
    }

    /** Adds every registered workload's options to {@code command}; returns them, to ask once it has parsed a line. */
    public static WorkloadOptionSet addTo(CommandSpec command) {
        Map<String, WorkloadOptions> options = new LinkedHashMap<>();
        for (Workload w : Workloads.all()) {
            WorkloadOptions o = w.options();
            if (o != null) {
                command.addMixin(w.name(), CommandSpec.forAnnotatedObject(o));
                options.put(w.name(), o);
            }
        }
        return new WorkloadOptionSet(options);
    }

    /** Whether any workload's option was given. */
    public boolean anyGiven() {
        return byWorkload.values().stream().anyMatch(WorkloadOptions::given);
    }

    /**
     * What the options made of a command line: the line (its workload, counts and replies as they rewrote them) and
     * the parameters they give its workload (null: none).
     */
    public record Choice(GridLine line, ObjectNode parameters) {
    }

    /**
     * What the options make of {@code given}: every workload's options rewrite the line in turn, give their
     * parameters (each checked, the chosen workload's kept, and the workload configured with them), and, once the
     * chosen workload is known, refuse what was given of them to a run of another. One line for the first misfit:
     * an unknown workload among them.
     */
    public Choice choose(GridLine given) {
        GridLine line = given;
        for (WorkloadOptions o : byWorkload.values()) {
            line = o.applyTo(line);
        }
        ObjectNode parameters = null;
        for (Map.Entry<String, WorkloadOptions> e : byWorkload.entrySet()) {
            ObjectNode p = e.getValue().parameters(line);
            if (e.getKey().equals(line.workload().strip())) {
                parameters = p;
            }
        }
        Workload workload = Workloads.named(line.workload(), parameters);
        for (Map.Entry<String, WorkloadOptions> e : byWorkload.entrySet()) {
            if (!e.getKey().equals(workload.name())) {
                e.getValue().refuseFor(workload.name());
            }
        }
        return new Choice(line, parameters);
    }
}
