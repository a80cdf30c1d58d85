package org.ftlab.harness.workload;

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
     * The workload named {@code name} given {@code parameters} (null: none); a clear error when it takes none of them
     * or one is out of range.
     */
    public static Workload named(String name, org.ftlab.harness.probe.Manifest.WorkloadParameters parameters) {
        return named(name).configured(parameters);
    }

    public static List<String> names() {
        return all().stream().map(Workload::name).sorted().toList();
    }

    private static List<Workload> all() {
        return ServiceLoader.load(Workload.class).stream().map(ServiceLoader.Provider::get)
                .collect(Collectors.toMap(Workload::name, w -> w, (a, b) -> a, TreeMap::new)).values().stream()
                .toList();
    }
}
