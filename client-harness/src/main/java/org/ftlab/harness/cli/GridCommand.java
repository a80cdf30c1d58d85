package org.ftlab.harness.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.harness.failover.PluginFailure;
import org.ftlab.harness.failover.PluginStrategies;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.harness.grid.GridPlan;
import org.ftlab.harness.grid.GridRunner;
import org.ftlab.harness.grid.RunDirectory;
import org.ftlab.harness.grid.SegmentEvents;
import org.ftlab.harness.lab.LabFile;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.harness.lab.NetworkedRun;
import org.ftlab.harness.probe.RunSettings;
import org.ftlab.harness.workload.ClientSession;
import org.ftlab.harness.workload.GridLine;
import org.ftlab.harness.workload.WorkloadOptionSet;
import org.ftlab.harness.workload.Workloads;
import org.ftlab.os.access.DatabaseEndpoint;
import org.ftlab.os.net.Hosts;
import org.ftlab.rm.api.DatabaseTier;
import org.ftlab.rm.api.FaultKind;
import org.ftlab.rm.api.NetworkLayout;
import org.ftlab.rm.api.Platform;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code ftlab grid}: the configuration grid, with probes per request and optional fault injection. */
@Command(name = "grid", mixinStandardHelpOptions = true,
        description = {"Runs the grid of configurations (clients x think time x reply size) against a replicated lab, "
                + "writing one probe file per configuration, a manifest and a fault log under the output directory.",
                "Ctrl-C keeps every finished configuration; running the same command with the same --out resumes."})
public final class GridCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Every registered workload's options, added to this command's line ({@link #addWorkloadOptions}). */
    private WorkloadOptionSet workloadOptions;

    @Option(names = "--profile", paramLabel = "NAME", description = "quick (48 configurations, minutes), paper "
            + "(48 configurations x 2 replicates, about 45 min: docs/findings.md), full (48 configurations, "
            + "5,000 posts + 5,000 views per client: hours) or infra (platform x strategy x degree x clients x reply "
            + "size, 72 configurations x 2 replicates, under an hour: docs/findings.md IV and VI). Default: quick.")
    String profile;

    @Option(names = "--grid", paramLabel = "FILE", description = "A grid file (properties: clients, think_ms, reply, "
            + "posts_per_client, views_per_client); flags below override it.")
    Path gridFile;

    @Mixin
    GridOptions gridOptions;

    @Option(names = "--out", paramLabel = "DIR", description = "Run directory (default: runs/<UTC timestamp>). "
            + "An unfinished run there is resumed.")
    Path out;

    @Option(names = "--workload", defaultValue = Workloads.DEFAULT, paramLabel = "NAME",
            description = "What the clients send and what is checked afterwards (default: ${DEFAULT-VALUE}: posts, "
                    + "then views of the auction service, each post audited exactly once in the database).")
    String workload;

    @Option(names = "--strategy", paramLabel = "LIST",
            description = "Client fail-over: reactive, preconnected, hedged, active, or wildfly-cluster (WildFly's "
                    + "own clustering over remote EJB: a grid with it boots a lab of WildFly's cluster) "
                    + "(docs/architecture.md; default: preconnected, or the profile's levels), or class:NAME, a strategy "
                    + "of your own from --plugin-dir (docs/labs/plugins.md). Several, e.g. preconnected,active: a "
                    + "factor of the grid, crossed with the others, each level with clients of its own.")
    String strategy;

    @Option(names = "--platform", paramLabel = "LIST",
            description = "The middleware the clients reach the service through: ejb (remote EJB; default, or the "
                    + "profile's levels) or rest (HTTP with JSON through WildFly's JAX-RS; same bean, request log and probes). Both, ejb,rest: "
                    + "a factor of the grid, each level with clients of its own.")
    String platform;

    @Option(names = "--plugin-dir", paramLabel = "DIR", description = "Where a class:NAME strategy is: the "
            + "directory of its compiled classes (e.g. DIR/target/classes) or its jar.")
    Path pluginDir;

    @Mixin
    KnobOptions knobs;

    @Option(names = "--lab", paramLabel = "DIR", description = "Run on the lab running in DIR ('ftlab lab --out DIR')"
            + " instead of booting one: the grid starts at once and leaves the lab running. Its replicas, spares, "
            + "heartbeat and request log are the lab's, so those options (and --topology, --hosts, --db-url, "
            + "--server-dir) are not given here.")
    Path labDir;

    @Option(names = "--spares", paramLabel = "N",
            description = "Pre-booted spare replicas the Replication Manager keeps outside the view, 0 to 3; one "
                    + "joins the view at once when a replica fails (default: 1, or as many as the fault schedule is "
                    + "expected to fail replicas, up to 3).")
    Integer spares;

    @Mixin
    FaultOptions faultOptions;

    @Option(names = "--replicas", paramLabel = "LIST", description = "Replicas, 1 to 5 (default: 2). Several, e.g. "
            + "2,3: a factor of the grid; the lab runs the highest, and a block of a lower degree moves backups to "
            + "the spare pool until it ends (with --lab: levels up to the lab's degree).")
    String replicasOption;

    /** The lab's degree: the one level, or the highest of a factor's. */
    private Integer replicas;
    /** The degree factor's levels (two or more), else empty. */
    private List<Integer> replicaLevels = List.of();

    @Option(names = "--topology", paramLabel = "T", description = "local: every process on this machine's "
            + "loopback (the default); netns: the database, every replica, the manager with the Fault Detector (each "
            + "manager of several on a host of its own), and the clients each on a host of its own (a network "
            + "namespace) on one virtual network, which network faults need (the default for a --faults-file that "
            + "has one). netns needs root.")
    String topologyOption;

    /** The topology the run has: the option's, or the one its faults file needs. */
    private String topology;

    @Option(names = "--hosts", paramLabel = "FILE", description = "Run the database and the replicas on other "
            + "machines over SSH (OpenSSH, key authentication), as a hosts file names them (docs/running.md); the "
            + "manager, the Fault Detector and the clients run here. Faults are made there; network faults need "
            + "--topology netns instead.")
    Path hostsFile;

    @Mixin
    DatabaseOptions database;

    @Mixin
    ManagersOption managers;

    @Mixin
    ServerOptions server;

    /**
     * Adds every registered workload's options to {@code grid}, this command's line, before it parses one: each
     * workload owns its options, and the command lists them with its own.
     */
    static void addWorkloadOptions(CommandLine grid) {
        ((GridCommand) grid.getCommand()).workloadOptions = WorkloadOptionSet.addTo(grid.getCommandSpec());
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter outw = spec.commandLine().getOut();
        Path runDir = FtlabCommand.runDir(out, "");
        if (replicasOption != null) {
            List<Integer> levels = GridPlan.parseInts("--replicas", replicasOption);
            if (levels.isEmpty()) {
                throw new IllegalArgumentException("--replicas needs a number of replicas, 1 to 5, or a list like 2,3");
            }
            new GridPlan.Infra(List.of(), levels); // one line for a bad level, before anything starts
            replicas = levels.stream().max(Integer::compare).orElseThrow();
            replicaLevels = levels.size() > 1 ? levels : List.of();
        }
        this.server.observe(); // checked before anything starts
        topology = topologyOption != null ? topologyOption : defaultTopology(outw);
        ManagedLab running = labDir == null ? null : attach();
        if (running != null && running.runDir().equals(runDir.normalize())) {
            throw new IllegalArgumentException("--out is the lab's own directory: give the run a directory of its own");
        }
        Path server = running != null ? null : this.server.server();
        DatabaseEndpoint external = database.external();
        NetworkLayout network = null;
        Hosts hosts = null;
        if (hostsFile != null) {
            if (!topology.equals("local")) {
                throw new IllegalArgumentException("--hosts places the lab on other machines; leave out --topology");
            }
            if (external != null) {
                throw new IllegalArgumentException("--hosts runs the embedded database on its db host; leave out "
                        + "--db-url");
            }
            hosts = Hosts.read(hostsFile); // a bad file fails here, before anything starts
        }
        if (topology.equals("netns")) {
            Optional<NetworkLayout> inside = NetworkedRun.current();
            if (inside.isEmpty()) {
                if (external != null) {
                    throw new IllegalArgumentException("--topology netns runs the embedded database on a host of its"
                            + " own; leave out --db-url");
                }
                if (!RunDirectory.hasManifest(runDir)) {
                    // bad options fail here, before a network is made
                    knobs.settings(pluginDir);
                    strategyLevels(pluginDir);
                    platformLevels();
                    GridPlan p = plan();
                    faultOptions.checkSupported(faultOptions.schedule(p.blockCount()), true, true, false,
                            database.tier().replicated(), managers.managers);
                }
                // Here the network is made; the same command runs again on the clients' host.
                List<String> args = new ArrayList<>(
                        spec.root().commandLine().getParseResult().originalArgs());
                if (out == null) {
                    args.addAll(List.of("--out", runDir.toString()));
                }
                return NetworkedRun.run(runDir, FtlabCommand.home(), FtlabCommand.class.getName(), args, outw);
            }
            network = inside.get();
        } else if (!topology.equals("local")) {
            throw new IllegalArgumentException("--topology must be local or netns, was '" + topology + "'");
        }

        RunDirectory dir;
        if (RunDirectory.hasManifest(runDir)) {
            if (profile != null || gridFile != null || gridOptions.any() || knobs.any() || pluginDir != null
                    || platform != null || strategy != null
                    || !workload.equals(Workloads.DEFAULT) || workloadOptions.anyGiven()) {
                throw new IllegalArgumentException(runDir + " holds an unfinished run: resume it with the same --out "
                        + "and no grid options, or choose a new --out");
            }
            dir = RunDirectory.resume(runDir);
            outw.println("ftlab grid: resuming " + runDir + " (plan from its manifest)");
        } else {
            GridLine given = new GridLine(workload, gridOptions.posts, gridOptions.views, gridOptions.reply, strategy,
                    platform);
            // the workloads' options: an unknown workload, or a parameter it does not take, fails here, before a lab
            // starts
            WorkloadOptionSet.Choice choice = workloadOptions.choose(given);
            RunSettings settings = running != null ? knobs.settings(pluginDir, running.description())
                    : knobs.settings(pluginDir);
            GridPlan plan = rewritten(plan(), given, choice.line());
            // the profile's infrastructure levels, where no option gives them
            if (strategy == null && plan.infra().variesStrategy()) {
                strategy = String.join(",", plan.infra().strategies());
            }
            if (platform == null && plan.infra().variesPlatform()) {
                platform = String.join(",", plan.infra().platforms());
            }
            if (replicasOption == null && plan.infra().variesReplicas()) {
                replicaLevels = plan.infra().replicas();
                replicas = plan.infra().maxReplicas();
                replicasOption = replicaLevels.stream().map(String::valueOf).collect(
                        Collectors.joining(","));
            }
            // a plug-in is loaded and checked here, before a lab starts
            List<String> strategies = strategyLevels(settings.pluginPath());
            String failover = strategies.get(0);
            List<String> platforms = platformLevels();
            plan = plan.withInfra(new GridPlan.Infra(strategies.size() > 1 ? strategies
                    : List.of(), replicaLevels, platforms.size() > 1 ? platforms : List.of()));
            FaultSchedule faultPlan = faultOptions.schedule(plan.blockCount());
            boolean cluster = strategies.contains(Strategies.WILDFLY_CLUSTER);
            if (cluster) {
                checkWildFlyCluster(platforms, hosts, running);
            }
            if (running != null) {
                int labReplicas = running.description().replicas();
                if (replicas != null && replicas > labReplicas) {
                    throw new IllegalArgumentException("--replicas " + replicasOption + ": the lab in --lab has "
                            + labReplicas + " replicas, so no block can have " + replicas + "; start the lab with "
                            + "--replicas " + replicas + " (lower degrees run on it by moving backups to the spare "
                            + "pool)");
                }
                replicas = labReplicas;
                spares = running.description().spares();
            } else if (replicas == null) {
                replicas = 2;
            }
            if (replicas < 1 || replicas > 5) {
                throw new IllegalArgumentException("--replicas must be 1 to 5, was " + replicas);
            }
            int lowest = replicaLevels.isEmpty() ? replicas : plan.infra().minReplicas();
            if (faultPlan.enabled() && lowest < 2) {
                throw new IllegalArgumentException("faults need at least 2 replicas (a backup to fail over to)"
                        + (!replicaLevels.isEmpty() ? " in every block; --replicas " + replicasOption + " has "
                        + lowest : running != null ? "; the lab in --lab has " + replicas : ""));
            }
            boolean embedded = running != null ? running.description().embeddedDatabase() : external == null;
            DatabaseTier tier = running != null ? running.description().tier() : database.tier();
            faultOptions.checkSupported(faultPlan, embedded, network != null, hosts != null, tier.replicated(),
                    running != null ? running.description().managerCount() : managers.managers);
            if (spares == null) {
                // A spare booted beside a loaded service barely boots at all (it runs at nice 19): a schedule that
                // fails several replicas gets a pool that covers them, so every fault meets a lab at full degree.
                spares = Math.max(ManagedLab.DEFAULT_SPARES, Math.min(3, faultPlan.replicaFailuresExpected(500)));
            } else if (spares < 0 || spares > 3) {
                throw new IllegalArgumentException("--spares must be 0 to 3, was " + spares);
            }
            dir = RunDirectory.create(runDir, plan, choice.line().workload(), choice.parameters(), failover,
                    platforms.get(0), faultPlan, replicas, spares,
                    running != null ? running.description().database()
                            : external == null ? LabFile.describe(tier) : external.redactedUrl(),
                    FtlabCommand.home(), settings);
            GridPlan.Design d = dir.plan().design();
            outw.printf(Locale.ROOT, "ftlab grid: %s profile, %d configurations x %d replicate%s, %d+%d invocations "
                    + "per client after %d warm-up, %s arrivals, %s order (seed %d), faults %s, strategy %s -> %s%n",
                    plan.profile(), plan.configurations().size(), d.repeat(), d.repeat() == 1 ? "" : "s",
                    plan.postsPerClient(), plan.viewsPerClient(), d.warmupPerClient(), d.arrival().wireName(),
                    d.order().wireName(), d.seed(), faultPlan.enabled() ? faultPlan.entries().size() + " (" + faultPlan.origin()
                    + ")" : "none", String.join(",", strategies), runDir);
            if (!platforms.equals(List.of("ejb"))) {
                outw.println("ftlab grid: platform " + String.join(",", platforms));
            }
            if (!replicaLevels.isEmpty()) {
                outw.printf(Locale.ROOT, "ftlab grid: replication degree as a factor, levels %s, on a lab of %d "
                        + "replicas%n", replicaLevels, replicas);
            }
            if (!settings.equals(RunSettings.DEFAULTS.withPlugin(settings.plugin()))) {
                outw.println("ftlab grid: " + settings.describe());
            }
        }
        outw.flush();
        if (running != null) {
            checkMatches(dir, running);
        }
        return run(dir, running, server, external, network, hosts, outw);
    }

    /**
     * The running lab of {@code --lab}. The options that would shape a lab of the grid's own are refused here: the
     * lab already has its shape.
     */
    /**
     * Without {@code --topology}: the virtual network if the faults file has a kind that needs it (a partition, a
     * leader cut off from the other managers) and the lab is this run's own on this machine, said on the console;
     * else loopback.
     */
    private String defaultTopology(PrintWriter outw) throws IOException {
        if (labDir != null || hostsFile != null) {
            return "local";
        }
        List<String> needing = faultOptions.fileKinds().stream().filter(FaultKind::needsNetwork)
                .map(FaultKind::wireName).toList();
        if (needing.isEmpty()) {
            return "local";
        }
        if (NetworkedRun.current().isEmpty()) {
            outw.println("ftlab grid: --topology netns, which the schedule's " + String.join(", ", needing)
                    + " needs (hosts on a virtual network)");
        }
        return "netns";
    }

    private ManagedLab attach() throws IOException {
        String given = (replicasOption != null && replicaLevels.size() < 2 ? " --replicas" : "")
                + (spares != null ? " --spares" : "")
                + knobs.lab.given() + (topologyOption != null ? " --topology" : "")
                + (hostsFile != null ? " --hosts" : "") + (database.external() != null ? " --db-url" : "")
                + (server.given() ? " --server-dir" : "");
        if (!given.isEmpty()) {
            throw new IllegalArgumentException(given.trim() + ": the lab in --lab has its own; give "
                    + (given.trim().contains(" ") ? "them" : "it") + " to 'ftlab lab', or leave out --lab");
        }
        return ManagedLab.attach(labDir);
    }

    /** A resumed run continues on a lab of its own shape only. */
    private static void checkMatches(RunDirectory dir, ManagedLab running) {
        var lab = running.description();
        RunSettings s = dir.settings();
        if (dir.replicas() != lab.replicas() || s.heartbeatMillis() != lab.heartbeatMs()
                || s.heartbeatTimeoutMillis() != lab.heartbeatTimeoutMs() || s.requestLog() != lab.requestLog()) {
            throw new IllegalArgumentException(dir.path() + " was run with " + dir.replicas() + " replicas and "
                    + s.describe() + "; the lab in --lab has " + lab.replicas() + " replicas, heartbeat H="
                    + lab.heartbeatMs() + " ms T=" + lab.heartbeatTimeoutMs() + " ms, request log "
                    + (lab.requestLog() ? "on" : "OFF") + ": resume it on a lab like the first");
        }
    }

    private int run(RunDirectory dir, ManagedLab running, Path server, DatabaseEndpoint external,
            NetworkLayout network, Hosts hosts, PrintWriter outw) throws Exception {
        dir.recordTopology(running != null ? running.description().topology() + ", the running lab in "
                + running.runDir() : hosts != null ? "hosts: " + hosts : network == null ? "local"
                : "netns " + network.prefix() + ".0/24 ftlab-" + network.tag() + "-*");
        long t0 = System.nanoTime();
        // this JVM's events: its clients' pauses stall every request at once
        SegmentEvents events = SegmentEvents.start(this.server.observe());
        ManagedLab lab;
        RunSettings settings = dir.settings();
        if (running != null) {
            lab = running;
            outw.println("on the running lab in " + running.runDir());
        } else {
            try {
                lab = ManagedLab.start(new ManagedLab.Options(dir.path(), server, dir.replicas(), dir.spares(),
                        external, settings.heartbeatMillis(), settings.heartbeatTimeoutMillis(), true, network,
                        hosts == null ? null : hostsFile, settings.requestLog(), this.server.observe(),
                        dir.needsWildFlyCluster(), database.tier(), managers.managers));
            } catch (IOException | RuntimeException e) {
                dir.finish("aborted");
                throw e;
            }
            outw.printf(Locale.ROOT, "lab ready in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        }
        outw.flush();
        GridRunner runner = new GridRunner(lab, dir, outw);
        CountDownLatch finished = new CountDownLatch(1);
        Thread onInterrupt = new Thread(() -> {
            runner.abort();
            try {
                finished.await(60, TimeUnit.SECONDS); // let the run record what it finished
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lab.close();
        }, "ftlab-grid-shutdown");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        boolean complete = false;
        boolean failed = false;
        long startEpochUs = MicroClock.nowEpochMicros();
        try {
            long r0 = System.nanoTime();
            complete = runner.run();
            dir.finish(complete ? "complete" : "aborted");
            outw.printf(Locale.ROOT, "grid %s in %.1f s; results in %s%n", complete ? "complete" : "aborted",
                    (System.nanoTime() - r0) / 1e9, dir.path());
            outw.flush();
        } catch (Exception e) {
            failed = true;
            if (!(e instanceof PluginFailure)) {
                dir.recordError(OneLineError.of(e));
            }
            dir.finish("aborted");
            throw e;
        } finally {
            if (!lab.owned()) {
                lab.keepDetectorLog(dir.path(), startEpochUs);
            }
            events.keep(dir, lab, startEpochUs, outw);
            events.close();
            finished.countDown();
            if (complete || failed) {
                try {
                    Runtime.getRuntime().removeShutdownHook(onInterrupt);
                    lab.close(); // a failed run stops its lab at once, not only when this JVM exits
                } catch (IllegalStateException shuttingDown) {
                    // Ctrl-C meanwhile: the shutdown hook closes the lab
                }
            }
        }
        if (!complete) {
            return 130;
        }
        return 0;
    }

    /**
     * The baseline strategy's conditions, each one line: WildFly's remote EJB client (no HTTP platform), members
     * that find each other through the lab's directory (no other machines), and a lab started as WildFly's cluster.
     */
    private static void checkWildFlyCluster(List<String> platforms, Hosts hosts, ManagedLab running) {
        String s = "--strategy " + Strategies.WILDFLY_CLUSTER;
        if (!platforms.equals(List.of("ejb"))) {
            throw new IllegalArgumentException(s + " is WildFly's remote EJB client: it runs over --platform ejb "
                    + "only; leave out --platform rest");
        }
        if (hosts != null) {
            throw new IllegalArgumentException(s + " runs on this machine or its virtual network (--topology "
                    + "netns): the cluster's members find each other through files in the lab's directory; leave "
                    + "out --hosts");
        }
        if (running != null && !running.description().wildflyCluster()) {
            throw new IllegalArgumentException(s + " needs a lab of WildFly's cluster; the lab in --lab is not "
                    + "one: start it with 'ftlab lab --wildfly-cluster' (or leave out --lab)");
        }
    }

    /**
     * The fail-over strategies of {@code --strategy}, by their canonical names, each resolved (a plug-in loaded and
     * checked) before a lab starts; one line for an unknown or repeated one.
     */
    private List<String> strategyLevels(Path pluginPath) {
        List<String> names = GridPlan.parseNames(strategy == null ? "preconnected" : strategy);
        if (names.isEmpty()) {
            throw new IllegalArgumentException("--strategy needs a strategy, e.g. preconnected, or a list like "
                    + "preconnected,active");
        }
        boolean anyPlugin = names.stream().anyMatch(PluginStrategies::isPlugin);
        if (pluginPath != null && !anyPlugin) {
            Strategies.resolve(names.get(0), pluginPath, ClientSession.GIVE_UP); // its one line: a built-in one
        }
        List<String> out = new ArrayList<>();
        for (String n : names) {
            out.add(Strategies.resolve(n, PluginStrategies.isPlugin(n) ? pluginPath : null,
                    ClientSession.GIVE_UP).name());
        }
        new GridPlan.Infra(out, List.of()); // a level given twice: one line
        return out;
    }

    /** The platforms of {@code --platform}, by their names; one line for an unknown or repeated one. */
    private List<String> platformLevels() {
        List<String> out = GridPlan.parseNames(platform == null ? "ejb" : platform).stream()
                .map(n -> Platform.parse(n).wireName()).toList();
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--platform needs a platform, ejb or rest, or the list ejb,rest");
        }
        new GridPlan.Infra(List.of(), List.of(), out); // a level given twice: one line
        return out;
    }

    /**
     * {@code plan} with what the workloads' options rewrote of the command line {@code given}: the counts per client
     * and the reply sizes (an option that chooses its workload may give both).
     */
    private static GridPlan rewritten(GridPlan plan, GridLine given, GridLine line) {
        GridPlan p = plan;
        if (!Objects.equals(line.posts(), given.posts()) || !Objects.equals(line.views(), given.views())) {
            p = p.withCounts(line.posts(), line.views());
        }
        if (!Objects.equals(line.reply(), given.reply())) {
            p = p.withFactors(null, null, GridPlan.parseReplies(line.reply()));
        }
        return p;
    }

    private GridPlan plan() throws IOException {
        GridPlan plan = GridPlan.named(profile == null ? "quick" : profile);
        if (gridFile != null) {
            Properties p = new Properties();
            if (!Files.isRegularFile(gridFile)) {
                throw new IllegalArgumentException("--grid " + gridFile + " is not a file");
            }
            try (InputStream in = Files.newInputStream(gridFile)) {
                p.load(in);
            }
            plan = plan.withFactors(
                    p.containsKey("clients") ? GridPlan.parseInts("clients", p.getProperty("clients")) : null,
                    p.containsKey("think_ms") ? GridPlan.parseInts("think_ms", p.getProperty("think_ms")) : null,
                    p.containsKey("reply") ? GridPlan.parseReplies(p.getProperty("reply")) : null);
            plan = plan.withCounts(Integer.parseInt(p.getProperty("posts_per_client", "" + plan.postsPerClient())),
                    Integer.parseInt(p.getProperty("views_per_client", "" + plan.viewsPerClient())));
        }
        return gridOptions.applyTo(plan);
    }
}
