package org.ftlab.harness.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.ftlab.harness.analysis.FailoverAnalysis;
import org.ftlab.harness.analysis.RunAnalysis;
import org.ftlab.harness.bench.AgreementBench;
import org.ftlab.harness.bench.AttributionBench;
import org.ftlab.harness.bench.FailoverBench;
import org.ftlab.harness.bench.ServiceBench;
import org.ftlab.harness.bench.SyntheticRun;
import org.ftlab.harness.bench.TartBench;
import org.ftlab.harness.bench.jmh.ProbeBenchmarks;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.lab.ManagedLab;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ftlab bench}: benchmarks, not tests. Each figure is the median and spread of repeated runs in this
 * process, written to {@code DIR/bench.json} and printed as a table.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmarks ftlab (not a test) and writes DIR/bench.json and DIR/bench.txt: each figure "
                + "with its median and spread over repeated runs, each comparison a ratio within one run.",
                "service: fault-free latency and throughput of view and post with 1 and 10 clients against a no-op "
                        + "EJB call and a bare JDBC round trip, and the probe overhead (A/B interleaved).",
                "failover: crashes and hangs of the primary under 1 and 10 clients with every client strategy "
                        + "(faulty-invocation latency and phases, detection, restoration, hand-over, extra requests, "
                        + "database work), then fault-free minutes with the single-target, hedged and active "
                        + "strategies in alternating blocks (p99.9, false suspicions, the warmer's CPU).",
                "analysis: time and peak memory to analyse a synthetic full-size run (2,640,000 rows).",
                "attribution (not in the default list): stalls of known cause (${bundle:stall-kinds}) injected "
                        + "--stalls times each under load, and the share the analysis names right (recall, "
                        + "precision); then what observing costs, in --cost-pairs pairs of blocks with and without "
                        + "it.",
                "tart (not in the default list): seed 003's study on the stateful tier: determinism off, and on with "
                        + "the regression estimator, the constant one and lazy silence, and the stateless tier, in "
                        + "rotated rounds at each "
                        + "--tart-spreads work variability (latency overhead, saturation throughput, pessimism delay, "
                        + "out-of-order, probes); then two crashes per --tart-intervals checkpoint interval and on "
                        + "the stateless tier (faulty invocation, detection, recovery, replay)."})
public final class BenchCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write bench.json and the synthetic run "
            + "(default: runs/bench-<time>).")
    Path out;

    @Option(names = "--suites", paramLabel = "LIST", split = ",", defaultValue = "service,agreement,failover,analysis,jmh",
            description = "Which suites to run (default ${DEFAULT-VALUE}).")
    List<String> suites;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "5",
            description = "Rounds of the service suite and runs of the analysis (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "1000",
            description = "Timed requests per client per workload and round in the service suite (default "
                    + "${DEFAULT-VALUE}), after --warmup untimed ones.")
    int requests;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "200",
            description = "Untimed requests per client before each timed measurement of the service and agreement "
                    + "suites (default ${DEFAULT-VALUE}; each suite also runs an untimed first round).")
    int warmup;

    @Option(names = "--crashes", paramLabel = "N", defaultValue = "4",
            description = "Crashes per fail-over run (default ${DEFAULT-VALUE}); each waits for the previous repair "
                    + "and a booted spare.")
    int crashes;

    @Option(names = "--failover-clients", paramLabel = "LIST", split = ",", defaultValue = "1,10",
            description = "Client counts of the crash and hang runs (default ${DEFAULT-VALUE}); every strategy runs at "
                    + "the first, the pre-connected and hedged ones at the others.")
    List<Integer> failoverClients;

    @Option(names = "--shadows", paramLabel = "LIST", split = ",", defaultValue = "0",
            description = "Shadow shares the crash and hang runs are repeated with (default ${DEFAULT-VALUE}: none; "
                    + "e.g. 0,0.5): each share's runs side by side, to weigh what shadow traffic buys at the hand-over "
                    + "against what it costs.")
    List<Double> shadows;

    @Option(names = "--wildfly-cluster", description = "The bench's lab is WildFly's cluster, and the fail-over suite "
            + "measures the baseline strategy wildfly-cluster beside ftlab's, on the same servers (a lab given with "
            + "--lab is measured so when it was started with --wildfly-cluster).")
    boolean wildflyCluster;

    @Option(names = "--failover-strategies", paramLabel = "LIST", split = ",",
            description = "Only these strategies in the crash and hang runs (default: every strategy at the first "
                    + "client count, pre-connected and hedged, and the baseline on a lab of WildFly's cluster, at the "
                    + "others).")
    List<String> failoverStrategies;

    @Option(names = "--hangs", paramLabel = "N", defaultValue = "4",
            description = "Hangs per hang run (default ${DEFAULT-VALUE}; 0: no hang runs).")
    int hangs;

    @Option(names = "--fault-free-minutes", paramLabel = "M", defaultValue = "10",
            description = "Fault-free minutes, split into alternating blocks of preconnected, hedged and active "
                    + "clients (default ${DEFAULT-VALUE}; 0: none).")
    double faultFreeMinutes;

    @Option(names = "--fault-free-clients", paramLabel = "N", defaultValue = "4",
            description = "Clients (no think time) of the fault-free blocks (default ${DEFAULT-VALUE}).")
    int faultFreeClients;

    @Mixin
    ServerOptions server;

    @Option(names = "--lab", paramLabel = "DIR", description = "Run the service, agreement and fail-over suites on "
            + "the lab running in DIR ('ftlab lab --out DIR') instead of booting one (its server and shape are its "
            + "own, so --server-dir is not given here); the fail-over suite needs 2 replicas and a spare there.")
    Path labDir;

    @Option(names = "--jmh-iteration-ms", paramLabel = "MS", defaultValue = "1000",
            description = "Length of each of JMH's 3 warm-up and 5 measured iterations per benchmark, ms (default: "
                    + "${DEFAULT-VALUE}; shorter gives a quick, noisier look).")
    int jmhIterationMillis;

    @Option(names = "--stalls", paramLabel = "N", defaultValue = "10",
            description = "Stalls of each kind in the attribution suite, one of each per block (default "
                    + "${DEFAULT-VALUE}).")
    int stalls;

    @Option(names = "--stall-posts", paramLabel = "N", defaultValue = "2000",
            description = "Posts per client in each block of the attribution suite (default ${DEFAULT-VALUE}: "
                    + "several seconds, so that the block's stalls are apart).")
    int stallPosts;

    @Option(names = "--cost-pairs", paramLabel = "N", defaultValue = "5",
            description = "Pairs of blocks (one observed, one not) measuring what observing costs, after the "
                    + "attribution suite's stalls (default ${DEFAULT-VALUE}; 0 skips it); each block has "
                    + "--stall-posts requests per client, half posts and half views.")
    int costPairs;

    @Option(names = "--requests-per-method", paramLabel = "N", defaultValue = "5000",
            description = "Posts and views per client in the synthetic run (default ${DEFAULT-VALUE}, the full "
                    + "profile).")
    int requestsPerMethod;

    @Option(names = "--tart-rounds", paramLabel = "N", defaultValue = "2",
            description = "Rounds of the tart suite (default ${DEFAULT-VALUE}).")
    int tartRounds;

    @Option(names = "--tart-parts", paramLabel = "LIST", split = ",", defaultValue = "overhead,crashes",
            description = "Parts of the tart suite: overhead (the arms at each spread), crashes (fail-over against "
                    + "the checkpoint interval); default ${DEFAULT-VALUE}.")
    List<String> tartParts;

    @Option(names = "--tart-spreads", paramLabel = "LIST", split = ",", defaultValue = "0,5,9",
            description = "Work variabilities of the tart suite (--work-spread levels, 0 to 9; default "
                    + "${DEFAULT-VALUE}).")
    List<Integer> tartSpreads;

    @Option(names = "--tart-bids", paramLabel = "N", defaultValue = "500",
            description = "Bids per client per block in the tart suite's overhead runs (default ${DEFAULT-VALUE}).")
    int tartBids;

    @Option(names = "--tart-clients", paramLabel = "N", defaultValue = "4",
            description = "Clients of the tart suite (default ${DEFAULT-VALUE}).")
    int tartClients;

    @Option(names = "--tart-intervals", paramLabel = "LIST", split = ",", defaultValue = "100,500,2000",
            description = "Checkpoint intervals (inputs) of the tart suite's crash runs; empty: none (default "
                    + "${DEFAULT-VALUE}).")
    List<Integer> tartIntervals;

    @Option(names = "--tart-crash-bids", paramLabel = "N", defaultValue = "1400",
            description = "Bids per client in each of the tart suite's crash runs (default ${DEFAULT-VALUE}: its "
                    + "crashes, at a third and two thirds of the bids, fall between checkpoints of every interval "
                    + "of the default list, not on one).")
    int tartCrashBids;

    @Override
    public Integer call() throws Exception {
        for (String suite : suites) {
            if (!List.of("service", "agreement", "failover", "analysis", "jmh", "attribution", "tart")
                    .contains(suite)) {
                throw new IllegalArgumentException("--suites: unknown suite '" + suite + "'; choose from service, "
                        + "agreement, failover, analysis, jmh, attribution, tart");
            }
        }
        if (failoverClients.stream().anyMatch(c -> c < 1 || c > 50)) {
            throw new IllegalArgumentException("--failover-clients must be 1 to 50 each");
        }
        if (shadows.stream().anyMatch(x -> !(x >= 0 && x <= 1))) {
            throw new IllegalArgumentException("--shadows must be shares from 0 to 1 each (0.5: half the requests), "
                    + "was " + shadows);
        }
        if (faultFreeMinutes < 0 || faultFreeMinutes > 600 || faultFreeClients < 1 || faultFreeClients > 50) {
            throw new IllegalArgumentException("--fault-free-minutes must be 0 to 600 and --fault-free-clients 1 "
                    + "to 50");
        }
        if (requests < 10 || crashes < 1 || crashes > 100 || hangs < 0 || hangs > 100) {
            throw new IllegalArgumentException("--requests must be at least 10, --crashes 1 to 100, --hangs 0 to 100");
        }
        if (jmhIterationMillis < 10 || jmhIterationMillis > 60_000) {
            throw new IllegalArgumentException("--jmh-iteration-ms must be 10 to 60000, was " + jmhIterationMillis);
        }
        if (warmup < 0 || warmup > 100_000) {
            throw new IllegalArgumentException("--warmup must be 0 to 100000, not " + warmup);
        }
        if (repeat < 1 || repeat > 100) {
            throw new IllegalArgumentException("--repeat must be between 1 and 100, not " + repeat);
        }
        if (stalls < 1 || stalls > 200 || stallPosts < 500 || stallPosts > 100_000) {
            throw new IllegalArgumentException("--stalls must be 1 to 200 and --stall-posts 500 to 100000");
        }
        if (costPairs < 0 || costPairs > 100) {
            throw new IllegalArgumentException("--cost-pairs must be 0 to 100, not " + costPairs);
        }
        if (suites.contains("attribution") && !server.observe().on()) {
            throw new IllegalArgumentException("--suites attribution needs events: leave out --observe off");
        }
        if (requestsPerMethod < 1 || requestsPerMethod > 100_000) {
            throw new IllegalArgumentException("--requests-per-method must be between 1 and 100000, not "
                    + requestsPerMethod);
        }
        if (tartRounds < 1 || tartRounds > 50 || tartClients < 1 || tartClients > 50 || tartBids < 10
                || tartBids > 100_000 || tartCrashBids < 100 || tartCrashBids > 100_000) {
            throw new IllegalArgumentException("--tart-rounds must be 1 to 50, --tart-clients 1 to 50, --tart-bids 10 "
                    + "to 100000 and --tart-crash-bids 100 to 100000");
        }
        if (tartParts.isEmpty() || tartParts.stream().anyMatch(x -> !x.equals("overhead") && !x.equals("crashes"))) {
            throw new IllegalArgumentException("--tart-parts must be overhead, crashes or both, was " + tartParts);
        }
        if (tartSpreads.isEmpty() || tartSpreads.stream().anyMatch(x -> x < 0 || x > 9)) {
            throw new IllegalArgumentException("--tart-spreads must be work spreads 0 to 9 each, was " + tartSpreads);
        }
        if (tartIntervals.stream().anyMatch(x -> x < 1 || x > 1_000_000)) {
            throw new IllegalArgumentException("--tart-intervals must be checkpoint intervals 1 to 1000000 each, was "
                    + tartIntervals);
        }
        boolean needsLab = suites.contains("tart") || suites.contains("service") || suites.contains("failover") || suites.contains("agreement")
                || suites.contains("attribution");
        if (labDir != null && server.given()) {
            throw new IllegalArgumentException("--server-dir: the lab in --lab has its own; give it to 'ftlab lab', "
                    + "or leave out --lab");
        }
        ManagedLab running = labDir != null && needsLab ? ManagedLab.attach(labDir) : null;
        if (running != null && (suites.contains("failover") || suites.contains("tart") && !tartIntervals.isEmpty())
                && (running.description().replicas() < 2 || running.description().spares() < 1)) {
            throw new IllegalArgumentException("--lab " + labDir + ": the fail-over suite needs 2 replicas and a "
                    + "spare; that lab has " + running.description().replicas() + " and "
                    + running.description().spares());
        }
        if (running != null && wildflyCluster && !running.description().wildflyCluster()) {
            throw new IllegalArgumentException("--wildfly-cluster: the lab in --lab is not WildFly's cluster; start "
                    + "it with 'ftlab lab --wildfly-cluster', or leave out --lab");
        }
        if (running != null && running.description().wildflyCluster()) {
            wildflyCluster = true;
        }
        if (failoverStrategies != null) {
            for (String s : failoverStrategies) {
                String name = Strategies.named(s).name(); // an unknown name: one line listing the valid ones
                if (name.equals(Strategies.WILDFLY_CLUSTER) && !wildflyCluster) {
                    throw new IllegalArgumentException("--failover-strategies " + name + " needs a lab of WildFly's "
                            + "cluster: add --wildfly-cluster (or give --lab a lab started with it)");
                }
            }
        }
        Path dir = FtlabCommand.runDir(out, "bench-");
        for (String run : List.of("attribution", "observation-cost")) {
            if (suites.contains("attribution") && Files.exists(dir.resolve(run))) {
                throw new IllegalArgumentException("--out " + dir + " holds an earlier bench's " + run + " run: give "
                        + "--out a new directory");
            }
        }
        Files.createDirectories(dir);
        PrintWriter pw = spec.commandLine().getOut();
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = json.createObjectNode();
        ObjectNode machine = root.putObject("machine");
        machine.put("cpus", Runtime.getRuntime().availableProcessors());
        machine.put("memory_gib", totalMemoryGiB());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        machine.put("max_heap_mib", Runtime.getRuntime().maxMemory() >> 20);
        root.put("when", java.time.Instant.now().toString());

        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "machine: %d CPUs, %.1f GiB, %s, %s%n", machine.path("cpus").asInt(),
                machine.path("memory_gib").asDouble(), machine.path("os").asText(), machine.path("java").asText()));
        if (needsLab) {
            try (ManagedLab lab = running != null ? running : startLab(dir, pw)) {
                String measured = lab.owned() ? "booted by the bench (" + lab.description().replicas()
                        + " replicas, " + lab.description().spares() + " spares)" : "the running lab in " + lab.runDir();
                root.put("lab", measured);
                table.append("lab: ").append(measured).append(System.lineSeparator());
                if (suites.contains("service")) {
                    pw.printf(Locale.ROOT, "service: %d rounds of %s, %d timed requests per client%n", repeat,
                            ServiceBench.WORKLOADS, requests);
                    pw.flush();
                    List<ServiceBench.Sample> samples = new ServiceBench(lab, pw).run(repeat, List.of(1, 10),
                            requests, warmup);
                    Map<String, Object> summary = ServiceBench.summarize(samples);
                    root.set("service", json.valueToTree(summary));
                    serviceTable(table, summary);
                }
                if (suites.contains("agreement")) {
                    pw.printf(Locale.ROOT, "agreement: %d rounds of the bench's view and post alternating with a grid "
                            + "run at the same load%n", repeat);
                    pw.flush();
                    Map<String, Object> a = new AgreementBench(lab, dir, pw, warmup).run(repeat,
                            requests);
                    root.set("agreement", json.valueToTree(a));
                    agreementTable(table, a);
                }
                if (suites.contains("failover")) {
                    failover(new FailoverBench(lab, dir, pw), json, root, table);
                }
                if (suites.contains("tart")) {
                    tart(new TartBench(lab, dir, pw), json, root, table, dir);
                }
                if (suites.contains("attribution")) {
                    AttributionBench bench = new AttributionBench(lab, dir, pw);
                    List<AttributionBench.KindResult> kinds = bench.run(stalls, stallPosts);
                    ObjectMapper snake = json.copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
                    root.set("attribution", snake.valueToTree(kinds));
                    attributionTable(table, kinds);
                    if (costPairs > 0) {
                        AttributionBench.ObservationCost cost = bench.cost(costPairs, stallPosts);
                        ObjectNode c = snake.valueToTree(cost);
                        c.put("mean_within_target", cost.meanWithinTarget());
                        c.put("p99_within_spread", cost.p99WithinSpread());
                        root.set("observation_cost", c);
                        costTable(table, cost);
                    }
                }
            }
        }
        if (suites.contains("analysis")) {
            analysis(dir, pw, root.putObject("analysis"), table);
        }
        if (suites.contains("jmh")) {
            jmh(pw, root, table, jmhIterationMillis);
        }
        root.put("when_finished", java.time.Instant.now().toString());
        Files.writeString(dir.resolve("bench.json"), json.writeValueAsString(root));
        Files.writeString(dir.resolve("bench.txt"), table.toString());
        pw.println();
        pw.print(table);
        pw.println("bench.json: " + dir.resolve("bench.json"));
        pw.flush();
        return 0;
    }

    /** The bench's own lab: 2 replicas, and a spare only for the fail-over suite (the others never fail one). */
    private ManagedLab startLab(Path dir, PrintWriter pw) throws Exception {
        int spares = suites.contains("failover") || suites.contains("tart") && !tartIntervals.isEmpty()
                ? ManagedLab.DEFAULT_SPARES : 0;
        pw.printf(Locale.ROOT, "starting the lab (2 replicas, %d spare%s, embedded database) ...%n", spares,
                spares == 1 ? "" : "s");
        pw.flush();
        return ManagedLab.start(new ManagedLab.Options(dir.resolve("lab"), server.server(), 2, spares, null,
                ManagedLab.DEFAULT_HEARTBEAT_MILLIS, ManagedLab.DEFAULT_HEARTBEAT_TIMEOUT_MILLIS, true, null, null,
                true, server.observe(), wildflyCluster));
    }

    @SuppressWarnings("unchecked")
    private static void agreementTable(StringBuilder table, Map<String, Object> a) {
        table.append(String.format(Locale.ROOT, "%nbench vs grid, same lab and load (medians over rounds; range in "
                + "brackets)%n%-8s %-5s %14s %14s %24s%n", "clients", "op", "bench mean ms", "grid mean ms",
                "grid ÷ bench"));
        for (Map.Entry<String, Object> e : a.entrySet()) {
            String[] k = e.getKey().split("/");
            Map<String, Object> f = (Map<String, Object>) e.getValue();
            ServiceBench.Spread b = (ServiceBench.Spread) f.get("bench_mean_us");
            ServiceBench.Spread g = (ServiceBench.Spread) f.get("grid_mean_us");
            ServiceBench.Spread r = (ServiceBench.Spread) f.get("grid_over_bench");
            table.append(String.format(Locale.ROOT, "%-8s %-5s %14.3f %14.3f %8.3f [%.3f–%.3f]%n", k[0], k[1],
                    b.median() / 1e3, g.median() / 1e3, r.median(), r.min(), r.max()));
        }
    }

    /** The tart suite: the overhead rounds, then the crash runs; its figures into bench.json and the table. */
    private void tart(TartBench bench, ObjectMapper json, ObjectNode root, StringBuilder t, Path dir)
            throws Exception {
        ObjectMapper snake = json.copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        ObjectNode node = root.putObject("tart");
        if (tartParts.contains("overhead")) {
            overhead(bench, snake, node, t, root, json, dir);
        }
        if (tartParts.contains("crashes") && !tartIntervals.isEmpty()) {
            List<TartBench.CrashRun> crashes = bench.crashes(tartRounds, tartIntervals, tartClients, tartCrashBids);
            node.set("crashes", snake.valueToTree(crashes));
            t.append(String.format(Locale.ROOT, "%ntart: two crashes of the primary per run, %d clients x %d bids, "
                    + "pre-connected; target: stateful faulty median <= stateless, replay < detection%n%-10s %5s %5s "
                    + "%7s %10s %10s %22s %16s %16s%n", tartClients, tartCrashBids, "tier", "every", "round",
                    "faulty", "faulty ms", "detect ms", "recovery ms", "replay inputs", "replay ms"));
            for (TartBench.CrashRun c : crashes) {
                t.append(String.format(Locale.ROOT, "%-10s %5s %5d %7d %10s %10s %22s %16s %16s%n", c.tier(),
                        c.checkpointEvery() == null ? "-" : c.checkpointEvery().toString(), c.round(),
                        c.faultyInvocations(), org.ftlab.harness.analysis.Format.number(c.faultyMedianMs()),
                        org.ftlab.harness.analysis.Format.number(c.detectionMedianMs()), list(c.recoveryMs()),
                        c.replayInputs().toString(), list(c.replayMs())));
            }
        }
    }

    /** The overhead rounds: every arm at every spread, summarized against determinism off. */
    private void overhead(TartBench bench, ObjectMapper snake, ObjectNode node, StringBuilder t, ObjectNode root,
            ObjectMapper json, Path dir) throws Exception {
        List<TartBench.ArmRun> runs = bench.overhead(tartRounds, tartSpreads, tartClients, tartBids, warmup);
        List<TartBench.ArmSummary> arms = TartBench.summarize(runs);
        node.set("runs", snake.valueToTree(runs));
        node.set("arms", snake.valueToTree(arms));
        t.append(String.format(Locale.ROOT, "%ntart (seed 003): %d rounds, %d clients, %d bids per client per block "
                + "after %d warm-up; loaded block think %d ms, saturated think 0; overhead and throughput ratio to "
                + "determinism off in the same round (median [range]); targets: overhead <= 4%%, throughput >= 0.97, "
                + "out of order <= 10%%, probes <= 2%n%-6s %-10s %9s %22s %9s %20s %10s %8s %8s %7s%n", tartRounds,
                tartClients, tartBids, warmup, TartBench.LOADED_THINK_MS, "spread", "arm", "mean ms", "overhead %",
                "req/s", "throughput ratio", "pessim µs", "o-o-o %", "probes", "db/req"));
        for (TartBench.ArmSummary a : arms) {
            t.append(String.format(Locale.ROOT, "%-6d %-10s %9.2f %22s %9.0f %20s %10.1f %8.1f %8.2f %7.2f%n",
                    a.workSpread(), a.arm(), a.loadedMeanMs().median(), range(a.latencyOverheadPercent(), "%+.1f"),
                    a.saturatedRatePerS().median(), range(a.throughputRatio(), "%.3f"),
                    a.pessimismUsPerMessage().median(), a.outOfOrderPercent().median(),
                    a.probesPerMessage().median(), a.statementsPerRequest().median()));
        }
        // kept at once: the crash runs that follow may fail or be stopped, the overhead rounds stay measured
        org.ftlab.os.AtomicFiles.write(dir.resolve("bench.json"), json.writeValueAsString(root));
    }

    private static String range(ServiceBench.Spread s, String format) {
        return s == null ? "-" : String.format(Locale.ROOT, format + " [" + format + ", " + format + "]", s.median(),
                s.min(), s.max());
    }

    private static String list(List<Double> v) {
        return v.isEmpty() ? "-" : v.stream().map(x -> String.format(Locale.ROOT, "%.1f", x))
                .collect(java.util.stream.Collectors.joining(", ", "[", "]"));
    }

    private static void attributionTable(StringBuilder t, List<AttributionBench.KindResult> kinds) {
        t.append(String.format(Locale.ROOT, "%nattribution: stalls of known cause under load (docs/performance.md, "
                + "\"Attribution\"); targets: recall and precision >= 95%%%n%-8s %-20s %8s %8s %6s %8s %8s %6s "
                + "%10s %8s %18s%n", "kind", "expected cause", "injected", "delayed", "found", "recall", "named",
                "right", "precision", "natural", "precision+natural"));
        for (AttributionBench.KindResult k : kinds) {
            t.append(String.format(Locale.ROOT, "%-8s %-20s %8d %8d %6d %7.1f%% %8d %6d %9.1f%% %8d %17.1f%%%n",
                    k.kind(), k.expectedCause(), k.injected(), k.injected() - k.delayedNone(), k.found(),
                    100 * k.recall(), k.attributions(), k.right(), 100 * k.precision(), k.natural(),
                    100 * k.precisionWithNatural()));
            k.missed().forEach(m -> t.append("  missed ").append(m).append('\n'));
        }
    }

    private static void costTable(StringBuilder t, AttributionBench.ObservationCost c) {
        t.append(String.format(Locale.ROOT, "%nobservation cost: %d blocks alternating with and without events, "
                + "scheduler counters and lock-wait sampling (docs/performance.md §8); targets: mean <= 3%% more, "
                + "p99 within the replicate spread%n%-10s %12s %12s %8s%n", c.blocks().size(), "", "observed",
                "not", "ratio"));
        t.append(String.format(Locale.ROOT, "%-10s %12.1f %12.1f %8.3f  (pairs %.3f–%.3f) %s%n", "mean µs",
                c.meanObservedUs(), c.meanUnobservedUs(), c.meanRatio(), c.pairMeanRatioMin(), c.pairMeanRatioMax(),
                c.meanWithinTarget() ? "met" : "missed"));
        t.append(String.format(Locale.ROOT, "%-10s %12.0f %12.0f %8.3f  (unobserved %d–%d) %s%n", "p99 µs",
                c.p99ObservedUs(), c.p99UnobservedUs(), c.p99Ratio(), c.p99UnobservedMinUs(), c.p99UnobservedMaxUs(),
                c.p99WithinSpread() ? "met" : "missed"));
    }

    private void analysis(Path dir, PrintWriter pw, ObjectNode a, StringBuilder table) throws Exception {
        Path run = dir.resolve("synthetic-run");
        pw.printf(Locale.ROOT, "analysis: writing a synthetic run (%d requests per method per client) ...%n",
                requestsPerMethod);
        pw.flush();
        deleteRecursively(run);
        long t0 = System.nanoTime();
        long rows = SyntheticRun.write(run, requestsPerMethod, 42);
        double writeS = (System.nanoTime() - t0) / 1e9;
        long bytes;
        try (Stream<Path> files = Files.list(run.resolve("probes"))) {
            bytes = files.mapToLong(p -> p.toFile().length()).sum();
        }
        double[] seconds = new double[repeat];
        double[] heapMib = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            System.gc();
            List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                    .filter(p -> p.getType() == MemoryType.HEAP).toList();
            heap.forEach(MemoryPoolMXBean::resetPeakUsage);
            long s0 = System.nanoTime();
            RunAnalysis.write(run, RunAnalysis.analyze(run));
            seconds[i] = (System.nanoTime() - s0) / 1e9;
            heapMib[i] = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum() / 1048576.0;
            pw.printf(Locale.ROOT, "  analysis run %d: %.2f s, peak heap used %.0f MiB%n", i + 1, seconds[i],
                    heapMib[i]);
            pw.flush();
        }
        a.put("configurations", 48);
        a.put("rows", rows);
        a.put("probe_bytes", bytes);
        a.put("synthetic_write_s", writeS);
        ArrayNode runs = a.putArray("runs_s");
        Arrays.stream(seconds).forEach(runs::add);
        ServiceBench.Spread time = ServiceBench.Spread.of(seconds);
        ServiceBench.Spread heapUsed = ServiceBench.Spread.of(heapMib);
        a.put("median_s", time.median());
        a.put("min_s", time.min());
        a.put("max_s", time.max());
        a.put("median_peak_heap_mib", heapUsed.median());
        a.put("process_peak_rss_mib", peakRssMib());
        a.put("target_s", 15);
        table.append(String.format(Locale.ROOT, "%nanalysis of %,d rows (%d MB), %d runs: median %.2f s (%.2f–%.2f), "
                + "peak heap used %.0f MiB (median), process peak RSS %.0f MiB; target < 15 s%n", rows,
                bytes / 1_000_000, repeat, time.median(), time.min(), time.max(), heapUsed.median(),
                a.path("process_peak_rss_mib").asDouble()));
    }

    /** JMH micro-benchmarks of the probes; with the service suite, their cost as a fraction of a view's mean. */
    /** The micro-benchmarks whose work lies inside a request's timed window with events off: the probe cost. */
    private static final java.util.Set<String> IN_WINDOW = java.util.Set.of("clientProbes", "serverProbes");

    private static void jmh(PrintWriter pw, ObjectNode root, StringBuilder table, int iterationMillis)
            throws Exception {
        pw.printf(Locale.ROOT, "jmh: probe recording on the client and the replica (1 fork, 3 warm-up and 5 measured "
                + "%d-ms iterations each) ...%n", iterationMillis);
        pw.flush();
        org.openjdk.jmh.runner.options.Options opt = new org.openjdk.jmh.runner.options.OptionsBuilder()
                .include(ProbeBenchmarks.class.getName()).forks(1)
                .warmupIterations(3).warmupTime(TimeValue.milliseconds(iterationMillis))
                .measurementIterations(5).measurementTime(TimeValue.milliseconds(iterationMillis))
                .verbosity(org.openjdk.jmh.runner.options.VerboseMode.SILENT).build();
        ObjectNode j = root.putObject("jmh");
        double totalNs = 0;
        table.append(String.format(Locale.ROOT, "%njmh (average time per operation)%n"));
        for (org.openjdk.jmh.results.RunResult r : new org.openjdk.jmh.runner.Runner(opt).run()) {
            String name = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            double score = r.getPrimaryResult().getScore();
            double error = r.getPrimaryResult().getScoreError();
            ObjectNode x = j.putObject(name);
            x.put("ns_per_op", score);
            x.put("error_ns_99pct", Double.isNaN(error) ? null : error);
            if (IN_WINDOW.contains(name)) {
                totalNs += score; // what every request's measured latency carries, events on or off
            }
            table.append(String.format(Locale.ROOT, "  %-22s %8.1f ± %.1f ns/op%n", name, score, error));
        }
        JsonNode view = root.path("service").path("1_client").path("view").path("mean_us").path("median");
        if (!view.isMissingNode()) {
            double fraction = totalNs / 1000.0 / view.asDouble();
            j.put("probe_cost_fraction_of_view_mean", fraction);
            table.append(String.format(Locale.ROOT, "  probes per request: %.0f ns = %.4f%% of a view's mean "
                    + "(%.3f ms, 1 client); target < 1%%%n", totalNs, 100 * fraction, view.asDouble() / 1e3));
            double observeNs = j.path("serverSchedstat").path("ns_per_op").asDouble(0);
            j.put("observe_cost_fraction_of_view_mean", observeNs / 1000.0 / view.asDouble());
            table.append(String.format(Locale.ROOT, "  with events on, a view's replica adds %.0f ns = %.4f%% (a "
                    + "post's transaction %.0f ns more)%n", observeNs, 100 * observeNs / 1000.0 / view.asDouble(),
                    j.path("databaseThreadReadings").path("ns_per_op").asDouble(0)));
        }
    }

    @SuppressWarnings("unchecked")
    private static void serviceTable(StringBuilder t, Map<String, Object> summary) {
        t.append(String.format(Locale.ROOT, "%nservice, think time 0 (medians over rounds; range in brackets)%n"
                + "%-10s %-15s %22s %9s %9s %22s %8s%n", "clients", "workload", "mean ms", "p50 ms", "p99 ms",
                "throughput req/s", "p99/mean"));
        for (Map.Entry<String, Object> c : summary.entrySet()) {
            Map<String, Object> per = (Map<String, Object>) c.getValue();
            for (Map.Entry<String, Object> w : per.entrySet()) {
                if (w.getKey().startsWith("ratios")) {
                    continue;
                }
                Map<String, Object> f = (Map<String, Object>) w.getValue();
                ServiceBench.Spread mean = (ServiceBench.Spread) f.get("mean_us");
                ServiceBench.Spread tp = (ServiceBench.Spread) f.get("throughput_per_s");
                t.append(String.format(Locale.ROOT, "%-10s %-15s %7.3f (%5.3f–%5.3f) %9.3f %9.3f %7.0f (%5.0f–%5.0f) "
                        + "%8.2f%n", c.getKey().replace('_', ' '), w.getKey(), mean.median() / 1e3,
                        mean.min() / 1e3, mean.max() / 1e3, ((ServiceBench.Spread) f.get("p50_us")).median() / 1e3,
                        ((ServiceBench.Spread) f.get("p99_us")).median() / 1e3, tp.median(), tp.min(), tp.max(),
                        ((ServiceBench.Spread) f.get("p99_over_mean")).median()));
            }
            Map<String, Object> ratios = (Map<String, Object>) per.get("ratios_of_means_same_round");
            t.append("  same-round ratios of means:");
            for (Map.Entry<String, Object> r : ratios.entrySet()) {
                ServiceBench.Spread s = (ServiceBench.Spread) r.getValue();
                if (s != null) {
                    t.append(String.format(Locale.ROOT, " %s %.3f (%.3f–%.3f);", r.getKey(), s.median(), s.min(),
                            s.max()));
                }
            }
            t.append('\n');
        }
    }

    /**
     * Crashes and hangs with every strategy at the first client count, with the pre-connected and hedged strategies
     * at the others; then the fault-free blocks.
     */
    private void failover(FailoverBench fb, ObjectMapper json, ObjectNode root, StringBuilder table)
            throws Exception {
        // bench.json spells every figure in snake case, the records' components included
        ObjectMapper snake = json.copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
        ArrayNode runs = root.putArray("failover");
        table.append(String.format(Locale.ROOT, "%nfail-over (medians; max in brackets)%n%-50s %6s %18s %10s %10s "
                + "%10s %9s %10s %9s %7s %6s %7s %10s%n", "run", "faulty", "faulty invocation", "detection",
                "fail-over", "retry", "FD detect", "restored", "hand-over", "back", "hot", "extra", "DB stmts/req"));
        List<String> all = new java.util.ArrayList<>(Strategies.ownNames());
        List<String> atOtherCounts = new java.util.ArrayList<>(List.of("preconnected", "hedged"));
        if (wildflyCluster) {
            all.add(Strategies.WILDFLY_CLUSTER);
            atOtherCounts.add(Strategies.WILDFLY_CLUSTER);
        }
        List<FailoverBench.FaultRun> done = new java.util.ArrayList<>();
        for (String kind : hangs > 0 ? List.of("crash", "hang") : List.of("crash")) {
            for (int i = 0; i < failoverClients.size(); i++) {
                for (String strategy : all) {
                    if (failoverStrategies != null ? failoverStrategies.stream().map(s -> Strategies.named(s).name())
                            .noneMatch(strategy::equals) : i > 0 && !atOtherCounts.contains(strategy)) {
                        continue;
                    }
                    for (double shadow : shadows) {
                        FailoverBench.FaultRun r = fb.run(kind, strategy, failoverClients.get(i),
                                kind.equals("crash") ? crashes : hangs, shadow);
                        runs.add(snake.valueToTree(r));
                        failoverRow(table, r);
                        done.add(r);
                    }
                }
            }
        }
        baselineRatios(table, done);
        if (faultFreeMinutes > 0) {
            List<String> faultFree = new java.util.ArrayList<>(List.of("preconnected", "hedged", "active"));
            if (wildflyCluster) {
                faultFree.add(Strategies.WILDFLY_CLUSTER);
            }
            FailoverBench.FaultFree ff = fb.faultFree(faultFree, faultFreeClients, faultFreeMinutes, 4);
            root.set("fault_free", snake.valueToTree(ff));
            faultFreeTable(table, ff);
        }
    }

    /**
     * Per fault kind and client count where the baseline ran: the faulty-invocation median of ftlab's best strategy
     * divided by WildFly's cluster's (below 1: ftlab's fail-over is faster).
     */
    private static void baselineRatios(StringBuilder t, List<FailoverBench.FaultRun> runs) {
        for (FailoverBench.FaultRun base : runs) {
            if (!base.strategy().equals(Strategies.WILDFLY_CLUSTER) || base.shadowShare() > 0
                    || base.faultyInvocation() == null) {
                continue;
            }
            FailoverBench.FaultRun best = null;
            for (FailoverBench.FaultRun r : runs) {
                if (r.kind().equals(base.kind()) && r.clients() == base.clients() && r.shadowShare() == 0
                        && !r.strategy().equals(Strategies.WILDFLY_CLUSTER) && r.faultyInvocation() != null
                        && (best == null || r.faultyInvocation().medianUs() < best.faultyInvocation().medianUs())) {
                    best = r;
                }
            }
            if (best != null) {
                t.append(String.format(Locale.ROOT, "%s, %d client%s: faulty invocation median, ftlab's best (%s) "
                        + "÷ %s: %.3f (%.1f ms ÷ %.1f ms)%n", base.kind(), base.clients(),
                        base.clients() == 1 ? "" : "s", best.strategy(), Strategies.WILDFLY_CLUSTER,
                        (double) best.faultyInvocation().medianUs() / base.faultyInvocation().medianUs(),
                        best.faultyInvocation().medianUs() / 1e3, base.faultyInvocation().medianUs() / 1e3));
            }
        }
    }

    private static void faultFreeTable(StringBuilder t, FailoverBench.FaultFree ff) {
        t.append(String.format(Locale.ROOT, "%nfault-free: %d clients, no think time, %.1f minutes in %d blocks of "
                + "%.0f s (strategies alternating, order reversed every round); %d false suspicions in all%n%-13s "
                + "%9s %9s %9s %9s %9s %7s %6s %12s %12s %10s%n", ff.clients(), ff.minutes(), ff.blocks(),
                ff.blockSeconds(), ff.falseSuspicions(), "strategy", "requests", "median", "p99", "p99.9", "max",
                "extra", "false", "DB stmts/req", "rollbacks/req", "idle CPU"));
        for (Map.Entry<String, FailoverBench.FaultFreeStrategy> e : ff.strategies().entrySet()) {
            FailoverBench.FaultFreeStrategy x = e.getValue();
            t.append(String.format(Locale.ROOT, "%-13s %9d %7.2fms %7.2fms %7.2fms %7.1fms %6.2f%% %6d %12.2f "
                    + "%12.2f %9.1f%%%n", e.getKey(), x.redundancy().requests(), x.medianUs() / 1e3,
                    x.p99Us() / 1e3, x.p999Us() / 1e3, x.maxUs() / 1e3, 100 * x.redundancy().extraRate(),
                    x.redundancy().falseSuspicions(), x.databasePerRequest().getOrDefault("Questions", 0.0),
                    x.databasePerRequest().getOrDefault("Com_rollback", 0.0),
                    100 * x.idleReplicasCpuFractionOfACore()));
        }
        FailoverBench.FaultFreeStrategy cluster = ff.strategies().get(Strategies.WILDFLY_CLUSTER);
        FailoverBench.FaultFreeStrategy hedged = ff.strategies().get("hedged");
        if (cluster != null && hedged != null) {
            t.append(String.format(Locale.ROOT, "hedged ÷ %s: mean %.3f, p99 %.3f, p99.9 %.3f%n",
                    Strategies.WILDFLY_CLUSTER, hedged.meanUs() / cluster.meanUs(),
                    (double) hedged.p99Us() / cluster.p99Us(), (double) hedged.p999Us() / cluster.p999Us()));
        }
        FailoverBench.FaultFreeStrategy base = ff.strategies().get("preconnected");
        if (base != null) {
            for (String s : List.of("hedged", "active")) {
                FailoverBench.FaultFreeStrategy x = ff.strategies().get(s);
                if (x != null) {
                    t.append(String.format(Locale.ROOT, "p99.9 %s ÷ preconnected: %.3f (p99 %.3f) at %.2f%% extra "
                            + "requests%n", s, (double) x.p999Us() / base.p999Us(), (double) x.p99Us() / base.p99Us(),
                            100 * x.redundancy().extraRate()));
                }
            }
        }
    }

    private static void failoverRow(StringBuilder t, FailoverBench.FaultRun r) {
        String name = r.kind() + ", " + r.strategy() + ", " + r.clients() + " client" + (r.clients() == 1 ? "" : "s")
                + ", " + r.faultsInjected() + " faults" + (r.shadowShare() > 0 ? ", shadow " + r.shadowShare() : "");
        t.append(String.format(Locale.ROOT, "%-50s %6s %18s %10s %10s %10s %9s %10s %9s %7s %6s %6.2f%% %10.2f%n",
                name,
                r.faultyInvocations(), medMax(r.faultyInvocation()), med(r.detection()), med(r.failover()),
                med(r.retry()), med(r.fdDetection()), r.degreeRestoredUs() == null ? "-"
                        : String.format(Locale.ROOT, "%.1f s", r.degreeRestoredUs().median() / 1e6),
                r.handoverRatio() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.handoverRatio().median()),
                (r.backToSpeedS() == null ? "-" : String.format(Locale.ROOT, "%.0f s", r.backToSpeedS().median()))
                        + (r.neverBackToSpeed() > 0 ? "+" + r.neverBackToSpeed() : ""),
                r.promotedHot() + "/" + r.promotedRead(), 100 * r.redundancy().extraRate(), r.databasePerRequest().getOrDefault("Questions", 0.0)));
    }

    private static String med(FailoverAnalysis.PhaseStats p) {
        return p == null ? "-" : String.format(Locale.ROOT, "%.1f ms", p.medianUs() / 1e3);
    }

    private static String medMax(FailoverAnalysis.PhaseStats p) {
        return p == null ? "-" : String.format(Locale.ROOT, "%.1f (%.0f) ms", p.medianUs() / 1e3, p.maxUs() / 1e3);
    }

    private static double peakRssMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: leave it out
        }
        return -1;
    }

    private static double totalMemoryGiB() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Math.round(Long.parseLong(line.replaceAll("\\D", "")) / 1048576.0 * 10) / 10.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return -1;
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        List<Path> all = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(p)) {
            walk.forEach(all::add);
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            Files.delete(all.get(i));
        }
    }
}
