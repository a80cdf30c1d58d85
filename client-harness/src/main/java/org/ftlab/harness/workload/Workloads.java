package org.ftlab.harness.workload;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The workloads on the class path, by name: every {@link Workload} registered for {@link ServiceLoader}. */
public final class Workloads {
    /** The service's workload, and the one of every run from before workloads were named. */
    public static final String DEFAULT = "auction";

    private Workloads() {
    }

    /** The workload named {@code name}; a clear error naming every workload otherwise. */
    public static Workload named(String name) {
        for (Workload w : all()) {
            if (w.name().equals(name.strip())) {
                return w;
            }
        }
        throw new IllegalArgumentException("unknown workload '" + name + "'; use one of " + String.join(", ", names()));
    }

    /**
     * The workload named {@code name} given the parameters a run records for it (null: none); a clear error when one
     * is out of range.
     */
    public static Workload named(String name, ObjectNode parameters) {
        return named(name).configured(parameters);
    }

    public static List<String> names() {
        return all().stream().map(Workload::name).sorted().toList();
    }

    /** The columns every workload adds to the side-by-side view of runs, in the order of their names. */
    public static RunColumns columns() {
        RunColumns out = RunColumns.NONE;
        for (Workload w : all()) {
            out = out.plus(w.columns());
        }
        return out;
    }

    /** Every workload, one of each name, in the order of their names. */
    public static List<Workload> all() {
        return ServiceLoader.load(Workload.class).stream().map(ServiceLoader.Provider::get)
                .collect(Collectors.toMap(Workload::name, w -> w, (a, b) -> a, TreeMap::new)).values().stream()
                .toList();
    }
}
