package org.ftlab.rm.detector;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.ftlab.fd.FaultDetector;
import org.ftlab.fd.HeartbeatStack;
import org.ftlab.os.ChildJvm;
import org.ftlab.os.FlightRecording;
import org.ftlab.os.Jcmd;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.NetworkLayout;
import org.ftlab.rm.replica.HeartbeatSettings;

/**
 * The lab's Fault Detectors: one per manager of the lab ({@code fd}, {@code fd2}, …), all members of the replicas'
 * heartbeat group on the manager's host, each on a port of its own ({@link HeartbeatSettings#detectorPorts()}). The
 * first coordinates the group; the others stand by in it, watching the same heartbeats, and the next coordinates (and
 * reports) at once when the first is gone, or is among the suspects of a double fault. So a detector's crash leaves no
 * moment in which nobody watches the replicas, as long as one of them runs. A detector whose
 * process exits while the lab runs is started again on its port ({@link #watch}): the group merges it back.
 *
 * <p>Mechanism only: what a restart means for the view (its record, the repair of the fault that killed it) is the
 * manager's, told through {@link Restarted}.
 */
public final class DetectorKeeper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(DetectorKeeper.class.getName());
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    /**
     * How the lab's detectors are started: {@code dir} holds their logs ({@code detector.log} the first's,
     * {@code detector-fd2.log} the next's, …); {@code managerUrl}: where they report (the members' addresses,
     * comma-separated, in a lab of several managers); {@code remoteReplicas}: a suspect's process state is asked of
     * the manager; {@code eventSettings}: a flight recording's settings, or null; {@code network}: the virtual
     * network whose manager host ({@code rm}) they run in, or null.
     */
    public record Launch(Path dir, String managerUrl, String managerToken, boolean remoteReplicas, Path eventSettings,
            VirtualNetwork network) {
    }

    /** What a restart changed: detector {@code name} runs again as process {@code pid}; {@code pids}: all of them. */
    public record Restarted(String name, long pid, List<Long> pids, Duration took) {
    }

    private final Launch launch;
    private final HeartbeatSettings heartbeat;
    private final ProcessHandle[] processes;
    private final OrphanGuard[] guards;
    private volatile boolean closed;

    private DetectorKeeper(Launch launch, HeartbeatSettings heartbeat) {
        this.launch = launch;
        this.heartbeat = heartbeat;
        this.processes = new ProcessHandle[heartbeat.detectorPorts().size()];
        this.guards = new OrphanGuard[processes.length];
    }

    /** Starts one detector per port of {@code heartbeat}, side by side, and waits until each is ready. */
    public static DetectorKeeper start(Launch launch, HeartbeatSettings heartbeat) throws IOException,
            InterruptedException {
        return adopt(launch, heartbeat, List.of());
    }

    /**
     * Adopts the detectors an earlier leader started, by {@code pids} (index order); one that is gone (or missing
     * from the list) is started again on its port.
     */
    public static DetectorKeeper adopt(Launch launch, HeartbeatSettings heartbeat, List<Long> pids)
            throws IOException, InterruptedException {
        DetectorKeeper keeper = new DetectorKeeper(launch, heartbeat);
        List<Integer> starting = new ArrayList<>();
        Process[] started = new Process[keeper.processes.length];
        try {
            for (int i = 0; i < keeper.processes.length; i++) {
                ProcessHandle adopted = i < pids.size()
                        ? ProcessHandle.of(pids.get(i)).filter(ProcessHandle::isAlive).orElse(null) : null;
                if (adopted != null) {
                    keeper.processes[i] = adopted;
                    keeper.guards[i] = OrphanGuard.watch(adopted.pid());
                } else {
                    started[i] = keeper.spawn(i);
                    starting.add(i);
                }
            }
            for (int i : starting) {
                keeper.awaitReady(i, started[i]);
                keeper.processes[i] = started[i].toHandle();
                keeper.guards[i] = OrphanGuard.watch(started[i].pid());
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            for (Process p : started) {
                if (p != null) {
                    p.destroyForcibly();
                }
            }
            keeper.close();
            throw e;
        }
        return keeper;
    }

    /** The detectors' pids, in index order (0: one being started again). */
    public List<Long> pids() {
        List<Long> out = new ArrayList<>(processes.length);
        for (ProcessHandle p : processes) {
            out.add(p == null ? 0L : p.pid());
        }
        return out;
    }

    /**
     * The detector that coordinates the heartbeat group now, as {@link org.ftlab.fd.DetectorFirstPolicy} orders them:
     * the first of them that runs (the first, if none does). Fault {@code fd-crash} kills this one.
     */
    public ProcessHandle coordinator() {
        for (ProcessHandle p : processes) {
            if (p != null && p.isAlive()) {
                return p;
            }
        }
        return processes[0];
    }

    /** Every running detector by its member name: the JVMs that record events. */
    public Map<String, Long> running() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < processes.length; i++) {
            ProcessHandle p = processes[i];
            if (p != null && p.isAlive()) {
                out.put(HeartbeatStack.detectorName(i + 1), p.pid());
            }
        }
        return out;
    }

    /** From now on, a detector whose process exits is started again on its port, and {@code listener} told. */
    public void watch(Consumer<Restarted> listener) {
        for (int i = 0; i < processes.length; i++) {
            watch(i, listener);
        }
    }

    private void watch(int index, Consumer<Restarted> listener) {
        ProcessHandle watched = processes[index];
        watched.onExit().thenRun(() -> {
            if (!closed && watched == processes[index]) {
                Thread t = new Thread(() -> restart(index, listener), "detector-restart");
                t.setDaemon(true);
                t.start();
            }
        });
    }

    private void restart(int index, Consumer<Restarted> listener) {
        long t0 = System.nanoTime();
        String name = HeartbeatStack.detectorName(index + 1);
        try {
            Process p = spawn(index);
            awaitReady(index, p);
            synchronized (this) {
                if (closed) {
                    ProcessTools.terminate(p.toHandle(), Duration.ofSeconds(5));
                    return;
                }
                OrphanGuard old = guards[index];
                guards[index] = OrphanGuard.watch(p.pid());
                processes[index] = p.toHandle();
                if (old != null) {
                    old.close();
                }
            }
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            LOG.info(String.format(Locale.ROOT, "Fault Detector %s was gone: a new one (pid %d) runs since %d ms",
                    name, p.pid(), took.toMillis()));
            listener.accept(new Restarted(name, p.pid(), pids(), took));
            watch(index, listener);
        } catch (IOException | RuntimeException e) {
            LOG.warning("Fault Detector " + name + " was gone and could not be started again: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A file of detector {@code index} (from 0): {@code base.ext} for the first, {@code base-fd2.ext} for the next. */
    private Path file(int index, String base, String ext) {
        return launch.dir().resolve(index == 0 ? base + ext
                : base + "-" + HeartbeatStack.detectorName(index + 1) + ext);
    }

    /** Starts detector {@code index} (from 0) on its port; on a virtual network in the manager's host. */
    private Process spawn(int index) throws IOException {
        String name = HeartbeatStack.detectorName(index + 1);
        Path console = file(index, "console", ".log");
        Files.deleteIfExists(console);
        List<String> options = new ArrayList<>(List.of("-Xmx128m", "-Djava.net.preferIPv4Stack=true"));
        if (launch.eventSettings() != null) {
            options.addAll(FlightRecording.jvmOptions(launch.eventSettings(), file(index, "jfr", "")));
        }
        List<String> cmd = ChildJvm.command(FaultDetector.class.getName(), options.toArray(String[]::new));
        cmd.addAll(List.of("--name", name, "--bind", heartbeat.detectorAddress(),
                "--port", Integer.toString(heartbeat.detectorPorts().get(index)),
                "--detectors", heartbeat.initialHosts(), "--rm-url", launch.managerUrl(),
                "--heartbeat-ms", Long.toString(heartbeat.heartbeatMillis()),
                "--timeout-ms", Long.toString(heartbeat.timeoutMillis()),
                "--log", file(index, "detector", ".log").toString(),
                // replicas on other machines: their process states come from their hosts, through the manager
                "--process-states", launch.remoteReplicas() ? "manager" : "here"));
        if (launch.network() != null) {
            cmd = launch.network().placement(NetworkLayout.MANAGER_HOST).wrap(cmd);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(console.toFile());
        pb.environment().put(FaultDetector.TOKEN_ENV, launch.managerToken()); // not on the command line (ps)
        return pb.start();
    }

    private void awaitReady(int index, Process p) throws IOException, InterruptedException {
        String name = HeartbeatStack.detectorName(index + 1);
        Path console = file(index, "console", ".log");
        if (ProcessTools.awaitOutput(p, console, START_TIMEOUT,
                out -> out.contains("fault-detector ready") ? Boolean.TRUE : null) == null) {
            p.destroyForcibly();
            throw new IOException("the Fault Detector " + name + " did not start; see " + console + ": "
                    + ProcessTools.readOutput(console).lines().reduce((a, b) -> b).orElse("(no output)"));
        }
    }

    /**
     * This manager no longer leads: it stops watching the detectors, which run on for the next leader to adopt (one
     * being started again meanwhile is stopped).
     */
    public synchronized void release() {
        closed = true;
    }

    /** Stops every detector (SIGTERM, then SIGKILL after 5 s). */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        for (int i = 0; i < processes.length; i++) {
            ProcessHandle p = processes[i];
            if (p != null) {
                ProcessTools.terminate(p, Duration.ofSeconds(5));
                Jcmd.forget(p.pid());
            }
            if (guards[i] != null) {
                guards[i].close();
            }
        }
    }
}
