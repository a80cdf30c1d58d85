package org.ftlab.harness.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.ftlab.harness.probe.ConfigId;
import org.ftlab.harness.probe.ProbeFile;

/** A run's probe files, {@code probes/*.csv}, in grid order. */
final class ProbeFiles {
    /**
     * Grid order: clients, load (think time or rate), reply size (original first), the infrastructure factors
     * (strategy, replicas, platform), replicate; files whose names are not a configuration's last. Not the names'
     * order.
     */
    static final Comparator<Path> GRID_ORDER = Comparator
            .comparing((Path p) -> ProbeFile.configName(stem(p)) == null)
            .thenComparingInt(p -> id(p).clients())
            .thenComparingDouble(p -> id(p).openLoop() ? id(p).ratePerS() : id(p).thinkMillis())
            .thenComparingInt(p -> id(p).replyBytes())
            .thenComparing(p -> String.valueOf(id(p).strategy()))
            .thenComparingInt(p -> id(p).replicas())
            .thenComparing(p -> String.valueOf(id(p).platform()))
            .thenComparingInt(p -> id(p).replicate())
            .thenComparing(p -> p.getFileName().toString());

    private ProbeFiles() {
    }

    /** The run's probe files in {@link #GRID_ORDER}; a clear error when there are none. */
    static List<Path> inGridOrder(Path runDir) throws IOException {
        Path probes = runDir.resolve("probes");
        if (!Files.isDirectory(probes)) {
            throw new IllegalArgumentException(runDir + " has no probes/ directory: not a grid run directory");
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(probes)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".csv")).sorted(GRID_ORDER).toList();
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException(probes + " holds no probe files: the run finished no configuration");
        }
        return files;
    }

    /** The file's configuration; all zeros for a name that is not one. */
    private static ConfigId id(Path file) {
        ConfigId id = ProbeFile.configName(stem(file));
        return id != null ? id : new ConfigId(0, 0, 0, 0, 0);
    }

    private static String stem(Path file) {
        return file.getFileName().toString().replace(".csv", "");
    }
}
