package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.ftlab.harness.attribution.InjectedStalls;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.os.Cgroup;
import org.ftlab.os.net.VirtualNetwork;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every lab's command, as its page in docs/labs/ writes it, runs in a shortened form: each loop runs for its first
 * value only, and so do the load's lists of levels ({@code --clients}, {@code --think}, {@code --reply}; the factors
 * the labs are about, platform and strategy, keep every level), every configuration gets {@value #POSTS} posts (and
 * as many views where the lab has views), one fault per configuration, a lab warm-up of 20 requests per client, one
 * spare for a schedule from a file (the shortened run fits only its first faults) and none for a lab of the run's own
 * otherwise (its one fault per configuration meets a backup), the suite's replica options beside a lab's own (lab 12's
 * stale reads), and the runs go to a directory of the test's. A run whose command does not shape a lab of its own
 * (replicas, spares, heartbeat, request log, topology, database, database tier) runs on the test run's
 * {@link RunningLab}, one with WildFly's cluster on a lab of WildFly's cluster lab 10's test boots; runs whose only
 * lab knob is {@code --request-log off} share one lab without the request log. The
 * command is taken from the page (its first {@code sh} block under "## The command"), so a page whose command no
 * longer works fails here.
 */
@ExtendWith(RunningLab.class)
class LabsIT {
    private static final Path HOME = Path.of(System.getProperty("ftlab.home", "..")).toAbsolutePath().normalize();
    static final int POSTS = 150;
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Ran(int code, String output, Path runs) {
    }

    /** The lab's command from its page. */
    static String command(Path page) throws Exception {
        String text = Files.readString(page, StandardCharsets.UTF_8);
        int heading = text.indexOf("\n## The command");
        assertTrue(heading >= 0, page + " has a '## The command' section");
        int start = text.indexOf("```sh\n", heading);
        int end = text.indexOf("\n```", start + 6);
        assertTrue(start > 0 && end > start, page + " has its command in an sh block");
        return text.substring(start + 6, end + 1);
    }

    /** The command shortened: every loop over its first value, the runs in {@code $RUNS}. */
    static String shortened(String command) {
        Matcher loop = Pattern.compile("for (\\w+) in (\\S+)[^;\\n]*; do").matcher(command);
        String s = loop.replaceAll("for $1 in $2; do");
        return s.replace("runs/", "$RUNS/");
    }

    /**
     * {@code scripts/ftlab} as the shortened labs call it: grid with {@value #POSTS} posts (views likewise) and one
     * fault per configuration; analyze without the compared runs a shortened loop did not make.
     */
    private static final String WRAPPER = """
            #!/usr/bin/env bash
            set -euo pipefail
            args=()
            # a lab's own replica options (lab 12's stale reads) beside the suite's, which boot replicas for tests
            case " ${FTLAB_REPLICA_JAVA_OPTS:-} " in
              *" $FTLAB_IT_REPLICA_JAVA_OPTS "*) ;;
              *) export FTLAB_REPLICA_JAVA_OPTS="${FTLAB_REPLICA_JAVA_OPTS:-} $FTLAB_IT_REPLICA_JAVA_OPTS" ;;
            esac
            if [[ "$1" == grid ]]; then
              args+=(grid --lab-warmup 20); shift
              spares=no file=no
              case " $* " in *" --spares "*) spares=yes ;; esac
              # a run that does not shape a lab of its own runs on the test run's running lab, one whose only knob is
              # --request-log off on the test class's lab without the request log
              own=no logoff=no
              for o in --replicas --spares --heartbeat-ms --heartbeat-timeout-ms --topology --hosts --db-url \\
                  --database; do
                case " $* " in *" $o "*) own=yes ;; esac
              done
              case " $* " in
                *" --request-log off "*) logoff=yes ;;
                *" --request-log "*) own=yes ;;
              esac
              # WildFly's cluster runs on the lab of WildFly's cluster the test boots (the running lab is not one)
              cluster=no
              case " $* " in *wildfly-cluster*) cluster=yes ;; esac
              if [[ $own == no && $cluster == yes ]]; then
                args+=(--lab "$FTLAB_IT_CLUSTER_LAB")
              elif [[ $own == no && $logoff == yes ]]; then
                args+=(--lab "$FTLAB_IT_LOG_OFF_LAB")
              elif [[ $own == no ]]; then
                args+=(--lab "$FTLAB_IT_LAB")
              elif [[ $logoff == yes ]]; then
                args+=(--request-log off)
              fi
              while (( $# )); do
                case "$1" in
                  --posts) args+=(--posts %1$d); shift 2 ;;
                  # the load's levels: the first only (the factors the labs are about, platform and strategy, keep
                  # every level)
                  --clients|--think|--reply) args+=("$1" "${2%%%%,*}"); shift 2 ;;
                  --bids) args+=(--bids %1$d); shift 2 ;;
                  --views) [[ "$2" == 0 ]] && args+=(--views 0) || args+=(--views %1$d); shift 2 ;;
                  --faults-per-config) args+=(--faults-per-config 1); shift 2 ;;
                  --request-log) shift 2 ;; # given above: to the lab, or the lab in --lab has it
                  # a shortened run fits only a schedule's first fault or two: one spare covers them, where the
                  # pool sized for the whole schedule would boot up to three
                  --faults-file) args+=("$1" "$2"); [[ $spares == no && $own == yes ]] && args+=(--spares 1)
                    file=yes; shift 2 ;;
                  *) args+=("$1"); shift ;;
                esac
              done
              # one fault per configuration meets a backup; a spare would only be booted (and waited for) in vain
              [[ $own == yes && $spares == no && $file == no ]] && args+=(--spares 0)
            else
              compare=no
              while (( $# )); do
                case "$1" in
                  --compare) compare=yes; shift ;;
                  --*) compare=no; args+=("$1"); shift ;;
                  *) if [[ $compare == yes ]]; then
                       [[ -d "$1" ]] && args+=(--compare "$1")
                     else
                       args+=("$1")
                     fi
                     shift ;;
                esac
              done
            fi
            exec "%2$s/scripts/ftlab" "${args[@]}"
            """;

    private static Ran run(String lab) throws Exception {
        return run(lab, POSTS, Map.of());
    }

    private static Ran run(String lab, int posts) throws Exception {
        return run(lab, posts, Map.of());
    }

    /**
     * As {@link #run(String)}, with {@code posts} posts per configuration (views likewise), and {@code env} in the
     * command's environment.
     */
    private static Ran run(String lab, int posts, Map<String, String> env) throws Exception {
        Path page;
        try (var pages = Files.list(HOME.resolve("docs/labs"))) {
            page = pages.filter(p -> p.getFileName().toString().startsWith(lab)).findFirst().orElseThrow();
        }
        Path work = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "lab-");
        Path bin = Files.createDirectories(work.resolve("bin/scripts"));
        Path wrapper = bin.resolve("ftlab");
        Files.writeString(wrapper, String.format(WRAPPER, posts, HOME));
        Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path runs = Files.createDirectories(work.resolve("runs"));
        Path script = work.resolve("lab.sh");
        Files.writeString(script, shortened(command(page)));
        // the command's "scripts/ftlab" resolves to the wrapper; its other paths (examples/...) to the project
        for (String sub : List.of("examples", "docs")) {
            Files.createSymbolicLink(work.resolve("bin").resolve(sub), HOME.resolve(sub));
        }
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString()).directory(work.resolve("bin").toFile())
                .redirectErrorStream(true).redirectOutput(work.resolve("output.log").toFile());
        pb.environment().put("RUNS", runs.toString());
        pb.environment().put("FTLAB_IT_LAB", RunningLab.dir().toString());
        pb.environment().put("FTLAB_IT_REPLICA_JAVA_OPTS", System.getenv().getOrDefault("FTLAB_REPLICA_JAVA_OPTS", ""));
        pb.environment().putAll(env);
        if (Files.readString(script).contains("--request-log")) {
            pb.environment().put("FTLAB_IT_LOG_OFF_LAB", logOffLab().toString());
        }
        Process p = pb.start();
        if (!p.waitFor(15, TimeUnit.MINUTES)) {
            p.destroy();
            throw new AssertionError(lab + " did not finish in 15 min");
        }
        String output = Files.readString(work.resolve("output.log"));
        System.out.println("---- " + lab + " (exit " + p.exitValue() + ")\n" + output);
        return new Ran(p.exitValue(), output, runs);
    }

    private static KeptLab logOffLab;

    /**
     * The lab without the request log that the labs' runs with {@code --request-log off} share (labs 4 and 12), booted
     * at the first such run: one lab's boot instead of two.
     */
    private static synchronized Path logOffLab() throws Exception {
        if (logOffLab == null) {
            logOffLab = KeptLab.start("log-off-lab-", "--request-log", "off");
        }
        return logOffLab.dir();
    }

    @AfterAll
    static void stopTheLogOffLab() throws Exception {
        if (logOffLab != null) {
            logOffLab.stop();
        }
    }

    private static JsonNode manifest(Path run) throws Exception {
        return JSON.readTree(run.resolve("manifest.json").toFile());
    }

    private static String report(Path run) throws Exception {
        return Files.readString(run.resolve("report/index.html"));
    }

    private static void assertComplete(Path run) throws Exception {
        JsonNode m = manifest(run);
        assertEquals("complete", m.path("status").asText(), run + ": " + m.path("error"));
        assertTrue(m.path("audit").path("passed").asBoolean(), run + ": exactly once");
        NetnsGridIT.assertNothingLeft(run);
    }

    /** Runs the lab, which must exit 0 and leave {@code runName} complete, audited and cleaned up. */
    private static Ran complete(String lab, String runName) throws Exception {
        Ran r = run(lab);
        assertEquals(0, r.code(), r.output());
        assertComplete(r.runs().resolve(runName));
        return r;
    }

    private static void assumeRootFaults() {
        assumeTrue(Cgroup.unusable("freezer").isEmpty() && Cgroup.unusable("cpu").isEmpty(),
                () -> Cgroup.unusable("freezer").orElse(Cgroup.unusable("cpu").orElse("")));
    }

    @Test
    void lab1MagicalOnePercentAndCoordinatedOmission() throws Exception {
        Ran r = complete("01-", "lab1");
        Path run = r.runs().resolve("lab1");
        assertTrue(r.output().contains("magical 1%:"), "the verdicts on the console");
        String report = report(run);
        assertTrue(report.contains("The magical 1%") && report.contains("Coordinated omission"));
    }

    @Test
    void lab2HeartbeatSweepRecordsEachSettingAndComparesTheRuns() throws Exception {
        Path run = complete("02-", "lab2-H20-T40").runs().resolve("lab2-H20-T40");
        assertEquals(20, manifest(run).path("settings").path("heartbeat_ms").asInt());
        assertEquals(40, manifest(run).path("settings").path("heartbeat_timeout_ms").asInt());
        assertTrue(report(run).contains("heartbeat H=20 ms T=40 ms"), "the knobs in the report");
    }

    @Test
    void lab9ComparesThePlatformsInOneGridAndFailsOverOverHttp() throws Exception {
        Ran r = complete("09-", "lab9");
        assertTrue(r.output().lines().anyMatch(l -> l.trim().startsWith("platform ")), "the ANOVA tests the platform");
        assertEquals("[\"ejb\",\"rest\"]", manifest(r.runs().resolve("lab9")).path("grid").path("platform")
                .toString());
        assertComplete(r.runs().resolve("lab9-crash-rest")); // the shortened loop's first platform
        assertEquals("rest", manifest(r.runs().resolve("lab9-crash-rest")).path("platform").asText());
        assertTrue(r.output().contains("fail-over (hedged)"), "the phases of the faulty invocations over HTTP");
        assertHttpRequestsSayWhenTheReplicasIOThreadReadThemAndEjbRequestsDoNot(r.runs().resolve("lab9/probes"));
    }

    private static void assertHttpRequestsSayWhenTheReplicasIOThreadReadThemAndEjbRequestsDoNot(Path probes)
            throws Exception {
        int http = 0;
        try (Stream<Path> files = Files.list(probes)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".csv")).toList()) {
                ProbeFile pf = ProbeFile.read(f);
                for (int i = 0; i < pf.size; i++) {
                    if (!pf.completed(i) || !pf.hasServerProbes(i)) {
                        continue;
                    }
                    if (pf.platform.equals("rest")) {
                        http++;
                        // the I/O thread read it before the bean began, on the replica's clock
                        assertTrue(pf.serverArriveUs[i] != ProbeFile.NONE
                                && pf.serverArriveUs[i] <= pf.serverRecvUs[i], f + " row " + i);
                    } else {
                        assertEquals(ProbeFile.NONE, pf.serverArriveUs[i], "JBoss Remoting says nothing of it");
                    }
                }
            }
        }
        assertTrue(http > 0, "the grid ran HTTP blocks");
    }

    /**
     * Lab 10's command on a lab of WildFly's cluster the test boots, then on the same lab WildFly's cluster under a
     * crash beside pinned clients ({@link WildFlyClusterIT}); the lab is stopped as Ctrl-C stops it, leaving nothing.
     */
    @Test
    void lab10PutsWildFlysClusterBesideFtlabsStrategiesOnTheSameServers() throws Exception {
        KeptLab cluster = KeptLab.start("wildfly-cluster-lab-", "--wildfly-cluster", "--spares", "1");
        try {
            lab10On(cluster.dir());
            WildFlyClusterIT.aCrashUnderWildFlysClusterLosesAndDuplicatesNothingAndPinnedClientsBesideItStayOnTheirReplica(
                    cluster.dir());
        } finally {
            cluster.stop();
        }
    }

    private static void lab10On(Path clusterLab) throws Exception {
        Ran r = run("10-", POSTS, Map.of("FTLAB_IT_CLUSTER_LAB", clusterLab.toString()));
        assertEquals(0, r.code(), r.output());
        assertComplete(r.runs().resolve("lab10"));
        assertEquals("[\"wildfly-cluster\",\"preconnected\",\"hedged\"]",
                manifest(r.runs().resolve("lab10")).path("grid").path("strategy").toString());
        assertTrue(r.output().contains("  wildfly-cluster:") && r.output().contains("fault-free mean"),
                "the baseline's figures beside ftlab's strategies: " + r.output());
    }

    @Test
    void lab12ChecksEachHistoryAndBothNegativeControlsAreNotLinearizable() throws Exception {
        Ran r = run("12-");
        JsonNode healthy = check(r.runs().resolve("lab12-healthy"));
        assertEquals("valid", healthy.path("verdict").asText(), r.output());
        JsonNode logOff = check(r.runs().resolve("lab12-log-off"));
        assertEquals("invalid", logOff.path("verdict").asText(), r.output());
        String duplicated = logOff.path("not_valid").get(0).path("anomaly").path("explanation").asText();
        assertTrue(duplicated.startsWith("duplicated effect") || duplicated.startsWith("an effect no operation"),
                duplicated);
        JsonNode stale = check(r.runs().resolve("lab12-stale"));
        assertEquals("invalid", stale.path("verdict").asText(), r.output());
        String staleRead = stale.path("not_valid").get(0).path("anomaly").path("explanation").asText();
        assertTrue(staleRead.startsWith("stale read"), staleRead);
        assertTrue(r.output().contains("INVALID, stale read"), r.output());
        assertTrue(report(r.runs().resolve("lab12-stale")).contains("Is it linearizable?"), "the report's section");
        NetnsGridIT.assertNothingLeft(r.runs().resolve("lab12-stale"));
    }

    private static JsonNode check(Path run) throws Exception {
        return JSON.readTree(run.resolve("check.json").toFile());
    }

    @Test
    void lab11PutsTheStatefulTierBesideTheStatelessOneWithItsNegativeControl() throws Exception {
        Ran r = complete("11-", "lab11-stateful");
        assertComplete(r.runs().resolve("lab11-stateless"));
        assertEquals("stateful", manifest(r.runs().resolve("lab11-stateful")).path("workload_parameters")
                .path("tier").asText());
        assertTrue(manifest(r.runs().resolve("lab11-stateful")).path("audit").path("oracle").asText()
                .contains("final state equal"), "the oracle agrees with the deterministic tier");
        assertTrue(manifest(r.runs().resolve("lab11-off")).path("audit").path("oracle").asText()
                .contains("determinism off, the negative control"), "the negative control is named as such");
        assertTrue(r.output().contains("stateful, determinism off") && r.output().contains("db stmts/req"),
                "the three runs side by side, with their tiers and database work: " + r.output());
        assertTrue(Files.exists(r.runs().resolve("lab11-stateful/report/compare.html")));
    }

    @Test
    void lab3FailoverStrategiesBreakDownTheFaultyInvocations() throws Exception {
        Ran r = complete("03-", "lab3-reactive");
        assertTrue(r.output().contains("fail-over (reactive)"), "the phases of the faulty invocations");
    }

    @Test
    void lab4WithoutTheRequestLogTheAuditFindsDuplicates() throws Exception {
        // the duplicates come from the hedges (a few percent of the posts, once each client's hedge delay has its
        // samples): 150 posts a client can end with none hedged, 600 not
        Ran r = run("04-", 600);
        Path off = r.runs().resolve("lab4-log-off");
        JsonNode m = manifest(off);
        assertEquals(false, m.path("settings").path("request_log").asBoolean(true));
        assertFalse(m.path("audit").path("passed").asBoolean(true), "the audit failed: " + m.path("audit"));
        assertTrue(m.path("audit").path("problems").get(0).asText().matches(".*#\\d+ stored [2-9] times"),
                m.path("audit").toString());
        assertTrue(r.output().contains("audit FAILED"), r.output());
        assertTrue(report(off).contains("WITHOUT the request log"), "the report warns");
        NetnsGridIT.assertNothingLeft(off);
    }

    @Test
    void lab5PartitionsOnAVirtualNetwork() throws Exception {
        assumeTrue(VirtualNetwork.unusable().isEmpty(), () -> VirtualNetwork.unusable().orElse(""));
        assumeRootFaults();
        Path run = complete("05-", "lab5").runs().resolve("lab5");
        assertTrue(Files.readString(run.resolve("faults.csv")).contains(",partition,"), "a partition was made");
    }

    @Test
    void lab7NamesTheCauseOfEachSlowRequestAndJudgesEveryInjectedStall() throws Exception {
        Ran r = complete("07-", "lab7");
        Path run = r.runs().resolve("lab7");
        assertTrue(r.output().contains("why the slowest 1% were slow:"), r.output());
        JsonNode summary = JSON.readTree(run.resolve("report/summary.json").toFile());
        // the shortened run ends before the page's schedule does: each stall it did inject is judged. A stall can
        // also make the detector suspect its replica, which the manager then fences: faults.csv records that failure
        // too (a hang nobody injected), and it is no stall of known cause
        List<FaultRecord> faults = FaultsCsv.readAll(run);
        long injected = faults.stream().filter(f -> f.kind() != null
                && InjectedStalls.judged(f.kind())).count();
        assertTrue(injected >= 1, "the shortened run injects the schedule's first stalls");
        assertEquals(injected, summary.path("injected_stalls").size(), "each injected stall is judged: "
                + summary.path("injected_stalls") + "; faults.csv: " + faults);
        assertTrue(summary.path("outliers").size() > 0);
        assertTrue(report(run).contains("Stalls injected on purpose"));
    }

    @Test
    void lab8EveryHandOverIsReportedWithItsTimeBackToSpeedAndWhetherThePromotedReplicaWasHot() throws Exception {
        Ran r = complete("08-", "lab8-jit0.05");
        Path run = r.runs().resolve("lab8-jit0.05");
        assertTrue(r.output().contains("request path at the top tier when promoted"), r.output());
        JsonNode summary = JSON.readTree(run.resolve("report/summary.json").toFile());
        int read = 0;
        for (JsonNode fault : summary.path("failover").path("faults")) {
            JsonNode h = fault.path("handover");
            if (!h.isMissingNode()) {
                assertTrue(h.has("ratio") && h.has("back_to_speed_s"), "each hand-over with its time back to speed: "
                        + h);
            }
            if (fault.has("promoted_top_tier_share")) {
                assertTrue(fault.path("promoted_hot").isBoolean(), "hot or not beside the share: " + fault);
                read++;
            }
        }
        assertTrue(read > 0, "the promoted replica's share was read before its promotion: " + summary.path("failover"));
    }

    @Test
    void lab6PerformabilityWithTwoSetsOfDemeritWeights() throws Exception {
        assumeRootFaults();
        Ran r = complete("06-", "lab6");
        Path run = r.runs().resolve("lab6");
        assertTrue(r.output().contains("performability: goodput"), r.output());
        assertTrue(report(run).contains("Performability"));
    }
}
