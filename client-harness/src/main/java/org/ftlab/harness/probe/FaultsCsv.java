package org.ftlab.harness.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.ftlab.os.AtomicFiles;
import org.ftlab.rm.api.FaultKind;

/**
 * {@code faults.csv} (and {@code faults-N.csv} of a resumed segment), the one reader and writer of it: one row per
 * injected fault, with the phases of the first replica failure it caused, and one row per failure nobody injected.
 * The columns are {@link Column}'s, written in its order and read by name, so a file from before a column existed
 * still reads (the column's value is unknown). Columns: docs/probe-format.md.
 */
public final class FaultsCsv {
    public static final String FILE = "faults.csv";

    /** The columns, in the order they are written; how each is written from a record. */
    public enum Column {
        FAULT_ID(FaultRecord::id),
        KIND(r -> r.kind() == null ? "" : r.kind().wireName()),
        TARGET(FaultRecord::target),
        REPLICA(FaultRecord::replica),
        INJECTED_EPOCH_US(r -> micros(r.injectedUs())),
        DETECTED_EPOCH_US(r -> micros(r.detectedUs())),
        PROMOTED_EPOCH_US(r -> micros(r.promotedUs())),
        RESTORED_EPOCH_US(r -> micros(r.restoredUs())),
        SPARES_READY(r -> r.sparesReady() == FaultRecord.UNKNOWN ? "" : Integer.toString(r.sparesReady())),
        REPAIRED_EPOCH_US(r -> micros(r.repairedUs())),
        REPAIR(FaultRecord::repair),
        DURATION_MS(r -> r.kind() != null && r.kind().lasts() ? Long.toString(r.durationMillis()) : ""),
        AMOUNT(r -> r.kind() != null && r.kind().amountUnit() != null ? Double.toString(r.amount()) : ""),
        VERDICT(FaultRecord::verdict),
        FAILURES(r -> Integer.toString(r.failures())),
        PROMOTED(FaultRecord::promoted),
        PROMOTED_TOP_TIER_SHARE(r -> Double.isNaN(r.promotedTopTierShare()) ? ""
                : String.format(Locale.ROOT, "%.3f", r.promotedTopTierShare()));

        private final Function<FaultRecord, String> value;

        Column(Function<FaultRecord, String> value) {
            this.value = value;
        }

        public String header() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The header line. */
    public static final String HEADER = Arrays.stream(Column.values()).map(Column::header)
            .collect(Collectors.joining(","));

    /** Columns without which a file cannot be read: it is not a faults file of ftlab's. */
    private static final List<Column> REQUIRED = List.of(Column.FAULT_ID, Column.KIND, Column.REPLICA,
            Column.INJECTED_EPOCH_US, Column.DETECTED_EPOCH_US, Column.PROMOTED_EPOCH_US, Column.RESTORED_EPOCH_US);

    private FaultsCsv() {
    }

    /** The file of segment {@code segment} (1: {@code faults.csv}; a resumed run's later ones: faults-N.csv). */
    public static Path file(Path runDir, int segment) {
        return runDir.resolve(segment > 1 ? "faults-" + segment + ".csv" : FILE);
    }

    /** Writes {@code rows} to {@code file} whole (atomically). */
    public static void write(Path file, List<FaultRecord> rows) throws IOException {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (FaultRecord r : rows) {
            out.append(Arrays.stream(Column.values()).map(c -> c.value.apply(r)).collect(Collectors.joining(",")))
                    .append('\n');
        }
        AtomicFiles.write(file, out.toString());
    }

    /** Every fault of a run directory, from faults.csv and the faults-N.csv of resumed segments, in file order. */
    public static List<FaultRecord> readAll(Path runDir) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(runDir)) {
            files = list.filter(p -> p.getFileName().toString().matches("faults(-\\d+)?\\.csv"))
                    .sorted((a, b) -> Integer.compare(segment(a), segment(b))).toList();
        }
        List<FaultRecord> out = new ArrayList<>();
        for (Path file : files) {
            out.addAll(read(file));
        }
        return out;
    }

    private static List<FaultRecord> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        String[] header = lines.isEmpty() ? new String[0] : lines.get(0).split(",", -1);
        Map<Column, Integer> col = new HashMap<>();
        for (int i = 0; i < header.length; i++) {
            for (Column c : Column.values()) {
                if (c.header().equals(header[i])) {
                    col.put(c, i);
                }
            }
        }
        for (Column c : REQUIRED) {
            if (!col.containsKey(c)) {
                throw new IllegalArgumentException(file + ": missing or unknown header (no column " + c.header()
                        + "); expected the columns of docs/probe-format.md");
            }
        }
        List<FaultRecord> out = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String[] f = lines.get(i).split(",", -1);
            if (f.length < header.length) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + " has " + f.length
                        + " fields, expected " + header.length + ": the file is truncated or damaged");
            }
            Function<Column, String> get = c -> col.containsKey(c) ? f[col.get(c)] : "";
            try {
                String kind = get.apply(Column.KIND);
                String failures = get.apply(Column.FAILURES);
                out.add(new FaultRecord(get.apply(Column.FAULT_ID), kind.isEmpty() ? null : FaultKind.parse(kind),
                        get.apply(Column.TARGET), get.apply(Column.REPLICA), time(get.apply(Column.INJECTED_EPOCH_US)),
                        time(get.apply(Column.DETECTED_EPOCH_US)), time(get.apply(Column.PROMOTED_EPOCH_US)),
                        time(get.apply(Column.RESTORED_EPOCH_US)), count(get.apply(Column.SPARES_READY)),
                        time(get.apply(Column.REPAIRED_EPOCH_US)), get.apply(Column.REPAIR),
                        number(get.apply(Column.DURATION_MS)), amount(get.apply(Column.AMOUNT)),
                        get.apply(Column.VERDICT),
                        failures.isEmpty() ? (kind.isEmpty() ? 1 : FaultRecord.UNKNOWN) : Integer.parseInt(failures),
                        get.apply(Column.PROMOTED), share(get.apply(Column.PROMOTED_TOP_TIER_SHARE))));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": a number is malformed: the "
                        + "file is damaged");
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static int segment(Path p) {
        String n = p.getFileName().toString();
        return n.equals(FILE) ? 1 : Integer.parseInt(n.replaceAll("\\D", ""));
    }

    private static String micros(long us) {
        return us == ProbeFile.NONE || us == 0 ? "" : Long.toString(us);
    }

    private static double share(String s) {
        return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }

    private static long time(String s) {
        return s.isEmpty() ? ProbeFile.NONE : Long.parseLong(s);
    }

    private static long number(String s) {
        return s.isEmpty() ? 0 : Long.parseLong(s);
    }

    private static double amount(String s) {
        return s.isEmpty() ? 0 : Double.parseDouble(s);
    }

    private static int count(String s) {
        return s.isEmpty() ? FaultRecord.UNKNOWN : Integer.parseInt(s);
    }
}
