package org.ftlab.harness.workload.bids.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;
import org.ftlab.harness.history.History;
import org.ftlab.harness.history.HistoryEvent;
import org.ftlab.harness.history.HistoryFiles;
import org.ftlab.harness.history.check.HistoryCheck;
import org.ftlab.harness.history.check.Linearizability;
import org.ftlab.harness.workload.bids.AuctionRaceModel;
import picocli.CommandLine.Option;

/**
 * {@code check}: the linearizability checker's speed and memory on a synthetic history of the bids workload
 * ({@link SyntheticBids}) — by default 1,000,000 offers over 16 auctions by 10 clients — read from its files and
 * checked with every CPU, within a memory bound; then the same number of offers at each other concurrency of
 * {@code --check-clients}, to show how the search grows with the operations in flight. bench.json's {@code check}.
 * Needs no lab.
 */
public final class CheckSuite implements Suite {
    /** The target for the default history, s. */
    private static final int TARGET_S = 30;

    /** The suite's options, a picocli mixin. */
    public static final class Options {
        @Option(names = "--check-operations", paramLabel = "N", defaultValue = "1000000",
                description = "Offers in each synthetic history the check suite checks (default ${DEFAULT-VALUE}).")
        long operations;

        @Option(names = "--check-keys", paramLabel = "K", defaultValue = "16",
                description = "Auctions they race on (default ${DEFAULT-VALUE}).")
        int keys;

        @Option(names = "--check-clients", paramLabel = "C", split = ",", defaultValue = "10,2,40",
                description = "Concurrencies, one history each; the first is the headline (default "
                        + "${DEFAULT-VALUE}).")
        List<Integer> clients;

        @Option(names = "--check-memory-mib", paramLabel = "MIB", defaultValue = "1024",
                description = "The checker's memory bound (default ${DEFAULT-VALUE}).")
        long memoryMiB;
    }

    private final Options options = new Options();

    @Override
    public String name() {
        return "check";
    }

    @Override
    public String description() {
        return "the linearizability checker's time and memory on synthetic bids histories (1,000,000 offers, 16 "
                + "auctions, 10 clients; then other concurrencies).";
    }

    @Override
    public boolean byDefault() {
        return false;
    }

    @Override
    public Object options() {
        return options;
    }

    @Override
    public void checkOptions() {
        if (options.operations < 1 || options.keys < 1 || options.memoryMiB < 1
                || options.clients.stream().anyMatch(c -> c < 1 || c > 1000)) {
            throw new IllegalArgumentException("--check-operations, --check-keys and --check-memory-mib must be at "
                    + "least 1, and each of --check-clients 1 to 1000");
        }
    }

    @Override
    public boolean needsLab() {
        return false;
    }

    @Override
    public void run(SuiteRun run) throws Exception {
        PrintWriter pw = run.progress();
        ObjectNode c = run.report().object("check");
        c.put("operations", options.operations);
        c.put("keys", options.keys);
        c.put("memory_bound_mib", options.memoryMiB);
        c.put("threads", Runtime.getRuntime().availableProcessors());
        c.put("target_s", TARGET_S);
        ArrayNode rows = c.putArray("by_clients");
        StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%nlinearizability check of %,d offers on "
                + "%d auctions (%d threads, memory bound %d MiB); target < %d s at %d clients%n", options.operations,
                options.keys, Runtime.getRuntime().availableProcessors(), options.memoryMiB, TARGET_S,
                options.clients.get(0)));
        for (int clients : options.clients) {
            Path dir = run.dir().resolve("check-history-" + clients);
            deleteRecursively(dir);
            pw.printf(Locale.ROOT, "check: writing a synthetic history of %,d offers by %d clients ...%n",
                    options.operations, clients);
            pw.flush();
            SyntheticBids.Written w = SyntheticBids.write(dir.resolve(History.DIR), options.operations, options.keys,
                    clients, 0.001, 42 + clients);
            System.gc();
            List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(p -> p.getType() == MemoryType.HEAP).toList();
            heap.forEach(MemoryPoolMXBean::resetPeakUsage);
            long t0 = System.nanoTime();
            List<HistoryEvent> events = HistoryFiles.readRun(dir);
            double readS = (System.nanoTime() - t0) / 1e9;
            HistoryCheck.Report r = HistoryCheck.check(events, new AuctionRaceModel(), HistoryCheck.Limits.of(
                    Runtime.getRuntime().availableProcessors(), options.memoryMiB, 600));
            double totalS = (System.nanoTime() - t0) / 1e9;
            double heapMib = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum() / 1048576.0;
            long configurations = r.keys().stream().mapToLong(k -> k.result().configurations()).sum();
            ObjectNode row = rows.addObject();
            row.put("clients", clients);
            row.put("events", w.events());
            row.put("unknown_outcome", w.unknown());
            row.put("verdict", r.verdict().wireName());
            row.put("read_s", readS);
            row.put("check_s", r.seconds());
            row.put("total_s", totalS);
            row.put("configurations", configurations);
            row.put("configurations_per_operation", configurations / (double) r.operations());
            row.put("peak_heap_mib", heapMib);
            String line = String.format(Locale.ROOT, "  %3d clients: %s in %.1f s (read %.1f s, search %.1f s), "
                    + "%.2f configurations an operation, peak heap %.0f MiB, %d offers of unknown outcome%n", clients,
                    r.verdict().wireName(), totalS, readS, r.seconds(), configurations / (double) r.operations(),
                    heapMib, w.unknown());
            pw.print(line);
            pw.flush();
            table.append(line);

            deleteRecursively(dir);
        }
        // the costly case: proving a history is not linearizable, at the headline's concurrency
        int clients = options.clients.get(0);
        Path dir = run.dir().resolve("check-history-broken");
        deleteRecursively(dir);
        SyntheticBids.write(dir.resolve(History.DIR), options.operations, options.keys, clients, 0.001, 42 + clients,
                options.operations / 2);
        long t0 = System.nanoTime();
        HistoryCheck.Report r = HistoryCheck.check(HistoryFiles.readRun(dir), new AuctionRaceModel(),
                HistoryCheck.Limits.of(Runtime.getRuntime().availableProcessors(), options.memoryMiB, 600));
        double totalS = (System.nanoTime() - t0) / 1e9;
        long invalid = r.keys().stream().filter(k -> k.result().verdict() == Linearizability.Verdict.INVALID)
                .count();
        ObjectNode broken = c.putObject("one_reply_broken");
        broken.put("clients", clients);
        broken.put("verdict", r.verdict().wireName());
        broken.put("keys_invalid", invalid);
        broken.put("total_s", totalS);
        String line = String.format(Locale.ROOT, "  %3d clients, one reply broken half-way: %s (%d key%s) in %.1f "
                + "s%n", clients, r.verdict().wireName(), invalid, invalid == 1 ? "" : "s", totalS);
        pw.print(line);
        table.append(line);
        deleteRecursively(dir);
        run.report().table().append(table);
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
