package org.ftlab.harness.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.harness.grid.FaultSchedule;
import org.ftlab.os.Cgroup;
import org.ftlab.rm.api.FaultKind;
import picocli.CommandLine.Option;

/** How a grid run gets its faults: a schedule file, a seed, or the crash/hang shorthands (docs/faults.md). */
public final class FaultOptions {
    @Option(names = "--faults", defaultValue = "none", paramLabel = "KIND",
            description = "Shorthand: none, crash (SIGKILL of the primary), hang (SIGSTOP of the primary until "
                    + "it is fenced), db-crash (SIGKILL of the database's writer: --database semisync, async) or "
                    + "db-hang, with --faults-per-config or --fault-every (default: ${DEFAULT-VALUE}).")
    String faults;

    @Option(names = "--fault-every", paramLabel = "SECONDS", description = "Inject a fault every SECONDS of run time.")
    double faultEvery;

    @Option(names = "--faults-per-config", paramLabel = "N", description = "Inject N faults in each configuration "
            + "replicate (with --faults or --fault-seed).")
    int faultsPerConfig;

    @Option(names = "--faults-file", paramLabel = "FILE", description = "A fault schedule: one fault per line, "
            + "'at kind target duration [amount]' (docs/faults.md; examples in examples/faults/).")
    Path faultsFile;

    @Option(names = "--fault-seed", paramLabel = "N", description = "A random schedule drawn from N: "
            + "--faults-per-config faults per block from --fault-mix. The same seed gives the same schedule.")
    Long faultSeed;

    @Option(names = "--fault-mix", paramLabel = "MIX", defaultValue = "local", description = "The kinds a "
            + "--fault-seed schedule draws from: process, database, network, local (process and database), stalls "
            + "(the stalls of known cause), all (stalls aside), db-failover (--database semisync…), watchmen (the managers' "
            + "and the detector's failures, --managers 3) or gray (tcp-reset, one-way); default: ${DEFAULT-VALUE}.")
    String faultMix;

    /**
     * The kinds the faults file names, before a plan exists (to choose the topology); none without a file, or with
     * one that does not read (the schedule reports why, later).
     */
    List<FaultKind> fileKinds() {
        if (faultsFile == null || !Files.isRegularFile(faultsFile)) {
            return List.of();
        }
        try {
            return List.copyOf(FaultSchedule.parse(Files.readString(faultsFile, StandardCharsets.UTF_8),
                    "file " + faultsFile.getFileName()).kinds());
        } catch (IOException | IllegalArgumentException e) {
            return List.of();
        }
    }

    /** The schedule these options give for a run of {@code blocks} blocks. */
    FaultSchedule schedule(int blocks) throws IOException {
        int ways = (faultsFile != null ? 1 : 0) + (faultSeed != null ? 1 : 0) + (!"none".equalsIgnoreCase(faults)
                ? 1 : 0);
        if (ways > 1) {
            throw new IllegalArgumentException("choose one of --faults-file, --fault-seed and --faults");
        }
        if (faultsFile != null) {
            if (!Files.isRegularFile(faultsFile)) {
                throw new IllegalArgumentException("--faults-file " + faultsFile + " is not a file");
            }
            if (faultsPerConfig != 0 || faultEvery != 0) {
                throw new IllegalArgumentException("--faults-file says when each fault comes; leave out "
                        + "--faults-per-config and --fault-every");
            }
            FaultSchedule s = FaultSchedule.parse(Files.readString(faultsFile, StandardCharsets.UTF_8),
                    "file " + faultsFile.getFileName());
            s.checkBlocks(blocks);
            return s;
        }
        if (faultSeed != null) {
            if (faultEvery != 0) {
                throw new IllegalArgumentException("--fault-seed places faults per configuration: use "
                        + "--faults-per-config N, not --fault-every");
            }
            return FaultSchedule.random(faultSeed, FaultSchedule.Mix.parse(faultMix), faultsPerConfig, blocks);
        }
        return FaultSchedule.shorthand(faults, faultEvery, faultsPerConfig, blocks);
    }

    /** Refuses a schedule with a kind this lab cannot make, before anything starts. */
    void checkSupported(FaultSchedule schedule, boolean embeddedDatabase, boolean virtualNetwork,
            boolean otherMachines, boolean replicatedDatabase, int managers) {
        FaultKind.LabFacts lab = new FaultKind.LabFacts(embeddedDatabase, virtualNetwork, otherMachines,
                replicatedDatabase, managers);
        for (FaultKind k : schedule.kinds()) {
            k.whyNot(lab, Cgroup::unusable).ifPresent(why -> {
                throw new IllegalArgumentException(why);
            });
        }
    }
}
