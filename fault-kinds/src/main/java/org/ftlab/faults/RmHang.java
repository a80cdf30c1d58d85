package org.ftlab.faults;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.FaultAmount;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.FaultTarget.Node;

/**
 * SIGSTOP of the Replication Manager that leads, made by itself; a process of its own sends the SIGCONT after the
 * duration (a stopped process cannot). The others elect a new leader; the old one wakes deposed and must not act
 * (docs/faults.md). Needs a lab of several managers.
 */
public final class RmHang extends LabFaultKind {
    public RmHang() {
        super("rm-hang", Layer.MANAGEMENT, ActsOn.MANAGER_PROCESS, EnumSet.of(Node.LEADER), LASTS, FaultAmount.NONE,
                NOT_A_STALL);
    }

    @Override
    public boolean failsAReplica(FaultSpec spec, long detectorTimeoutMillis) {
        return false;
    }

    @Override
    public Optional<String> whyNot(LabFacts lab, Function<String, Optional<String>> unusableController) {
        return Support.severalManagers(wireName(), lab);
    }

    @Override
    public Undo make(FaultSpec spec, FaultSite site) throws IOException {
        long pid = site.pid();
        // the waker first: once this process is stopped it can start nothing
        new ProcessBuilder(List.of("sh", "-c", "sleep \"$1\"; kill -CONT \"$2\" 2>/dev/null", "ftlab-rm-hang",
                String.format(Locale.ROOT, "%.3f", spec.durationMillis() / 1000.0), Long.toString(pid)))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return ProcessFaults.stop(site.where(), pid);
    }
}
