package org.ftlab.harness.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * What ftlab's own client added to what it measured on this machine, as {@code ftlab bench --suites calibration}
 * last measured it (docs/performance.md, "Calibration"): per door, over the leanest client it ran beside ftlab's on
 * the same endpoint, rate and lab. The bench keeps the latest in the user's cache ({@link #cacheDir}); a grid run
 * copies it into its directory when it starts ({@value #FILE}), so that its report states the calibration of the
 * machine and client that measured it, whatever machine analyses it later. Written whole, atomically.
 *
 * @param measuredAt when the bench ran (ISO-8601)
 * @param host the machine's name
 * @param ratePerS the bench's rate, requests per second
 * @param rounds the rounds whose same-round differences were taken
 * @param doors per door, what ftlab's client added
 */
public record ClientCalibration(String measuredAt, String host, double ratePerS, int rounds, List<Door> doors) {
    public static final String FILE = "client-calibration.json";

    /**
     * What ftlab's client added through one door over {@code reference}: medians over the rounds of the same-round
     * differences (µs) and ratios of the two clients' service times.
     *
     * @param external whether the reference is a program nobody here wrote (an external load generator)
     */
    public record Door(String platform, String reference, boolean external, double p50AddedUs, double p99AddedUs,
            double maxAddedUs, double p50Ratio, double p99Ratio) {
    }

    public ClientCalibration {
        doors = List.copyOf(doors);
    }

    /** The system property that moves {@link #cacheDir} (the integration tests keep theirs in {@code target/}). */
    public static final String CACHE_PROPERTY = "ftlab.cache.dir";

    /**
     * The per-user cache the bench keeps the latest calibration in: {@code $XDG_CACHE_HOME/ftlab}, else
     * {@code ~/.cache/ftlab} (where the embedded database's binaries are unpacked too); system property
     * {@value #CACHE_PROPERTY} where set.
     */
    public static Path cacheDir() {
        String set = System.getProperty(CACHE_PROPERTY);
        if (set != null && !set.isBlank()) {
            return Path.of(set);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path cache = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return cache.resolve("ftlab");
    }

    /** A calibration measured now on this machine. */
    public static ClientCalibration measuredNow(double ratePerS, int rounds, List<Door> doors) {
        return new ClientCalibration(Instant.now().toString(), Manifest.Host.localName(), ratePerS, rounds, doors);
    }

    /** Writes it as {@code dir}'s {@value #FILE}. */
    public void writeTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        RunRecordFiles.write(dir, FILE, this);
    }

    /** {@code dir}'s calibration, or null when it has none. */
    public static ClientCalibration readFrom(Path dir) throws IOException {
        return RunRecordFiles.read(dir, FILE, ClientCalibration.class, "a client calibration");
    }

    /**
     * Copies the calibration of {@code cacheDir} (the machine's latest) into run directory {@code runDir}; nothing
     * when there is none. Returns whether it copied.
     */
    public static boolean copyInto(Path cacheDir, Path runDir) throws IOException {
        Path from = cacheDir.resolve(FILE);
        if (!Files.isRegularFile(from)) {
            return false;
        }
        Path tmp = runDir.resolve(FILE + ".tmp");
        Files.copy(from, tmp, StandardCopyOption.REPLACE_EXISTING);
        Files.move(tmp, runDir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return true;
    }

    /**
     * What ftlab's client added through door {@code platform}, in one phrase per reference: {@code +0.004 ms at the
     * median and -0.860 ms at p99 over a bare EJB loop}; empty when the door was not calibrated.
     */
    public List<String> describe(String platform) {
        return doors.stream().filter(d -> d.platform().equals(platform)).map(d -> String.format(Locale.ROOT,
                "%+.3f ms at the median and %+.3f ms at p99 (×%.2f, ×%.2f) over %s%s", d.p50AddedUs() / 1e3,
                d.p99AddedUs() / 1e3, d.p50Ratio(), d.p99Ratio(), d.reference(), d.external() ? " (external)" : ""))
                .toList();
    }
}
