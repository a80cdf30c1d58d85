package org.ftlab.rm.replica;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.ftlab.auction.api.MicroClock;
import org.ftlab.fd.ProcessState;
import org.ftlab.os.FreePorts;
import org.ftlab.os.Jcmd;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;

/**
 * One replica of the middle tier: a WildFly server process with its own base directory and port offset, serving the
 * auction EJB over HTTP-upgraded remoting on 127.0.0.1, on its own host of the lab's virtual network, or on another
 * machine (then its process here is the ssh that started it, and {@link #pid()} is the server's there).
 */
public final class Replica implements AutoCloseable {
    /** Console markers: WFLYSRV0025 "started", WFLYSRV0026 "started (with errors)". */
    private static final String STARTED = "WFLYSRV0025";
    private static final String STARTED_WITH_ERRORS = "WFLYSRV0026";
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    /** Watches adopted replicas' processes for their exit. */
    private static final ScheduledExecutorService ADOPTED_EXITS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "adopted-replica-exits");
        t.setDaemon(true);
        return t;
    });
    private static final long ADOPTED_EXIT_POLL_MILLIS = 50;

    private final String name;
    private final Placement placement;
    private final long pid;
    private final int portOffset;
    /** The directory of a replica's base directory that holds its Flight Recorder chunks. */
    public static final String EVENT_REPOSITORY = "jfr";
    private final Path baseDir;
    /** The process this JVM started (the server, or the ssh that started it there); null for an adopted one. */
    private final Process launched;
    /** The server's process here (an adopted one's by its pid); null if it was gone when adopted. */
    private final ProcessHandle process;
    private final OrphanGuard guard;
    private final long launchedNanos;
    private final long launchedEpochMillis;
    private volatile Duration startupTime;
    private final boolean recordsInlining;
    private final boolean compilesAtC2;
    /** Completes when its process has exited. */
    private final CompletableFuture<Void> exited = new CompletableFuture<>();
    /** When its process exited ({@link MicroClock}), or -1 while it runs. */
    private volatile long exitedEpochUs = -1;

    Replica(String name, Placement placement, long pid, int portOffset, Path baseDir, Process process,
            OrphanGuard guard, long launchedNanos, boolean recordsInlining, boolean compilesAtC2) {
        this(name, placement, pid, portOffset, baseDir, process, process.toHandle(), guard, launchedNanos,
                System.currentTimeMillis(), recordsInlining, compilesAtC2);
    }

    private Replica(String name, Placement placement, long pid, int portOffset, Path baseDir, Process launched,
            ProcessHandle process, OrphanGuard guard, long launchedNanos, long launchedEpochMillis,
            boolean recordsInlining, boolean compilesAtC2) {
        this.recordsInlining = recordsInlining;
        this.compilesAtC2 = compilesAtC2;
        this.name = name;
        this.placement = placement;
        this.pid = pid;
        this.portOffset = portOffset;
        this.baseDir = baseDir;
        this.launched = launched;
        this.process = process;
        this.guard = guard;
        this.launchedNanos = launchedNanos;
        this.launchedEpochMillis = launchedEpochMillis;
        if (process == null) {
            // gone before it was adopted, at a moment unknown here: its launch, the earliest it can have been
            exitedEpochUs = launchedEpochMillis * 1000;
            exited.complete(null);
        } else if (launched != null) {
            process.onExit().thenRun(this::exitedNow);
        } else {
            // not this JVM's child: the JDK polls for the exit of such a process at intervals that grow with its
            // age (to seconds), which would date an adopted replica's death seconds late
            watchExit();
        }
    }

    /** An adopted replica's process, polled every {@value #ADOPTED_EXIT_POLL_MILLIS} ms until it has exited. */
    private void watchExit() {
        if (process.isAlive()) {
            ADOPTED_EXITS.schedule(this::watchExit, ADOPTED_EXIT_POLL_MILLIS, TimeUnit.MILLISECONDS);
        } else {
            exitedNow();
        }
    }

    private void exitedNow() {
        if (exitedEpochUs < 0) {
            exitedEpochUs = MicroClock.nowEpochMicros();
        }
        exited.complete(null);
    }

    /**
     * What another manager needs to take over a replica this one launched ({@link #adopt}): its name, where it runs,
     * its server's pid, ports and directory, when it was launched and how its JVM compiles.
     *
     * @param namespace its network namespace, or null: this machine's own network
     */
    public record Launch(String name, String namespace, String address, long pid, int portOffset, String baseDir,
            long launchedEpochMillis, boolean recordsInlining, boolean compilesAtC2) {
    }

    /** This replica as another manager would adopt it. */
    public Launch launch() {
        return new Launch(name, placement.namespace(), placement.address(), pid, portOffset, baseDir.toString(),
                launchedEpochMillis, recordsInlining, compilesAtC2);
    }

    /**
     * A replica another manager launched on this machine, taken over by its pid: signals, state and a stop reach it
     * as they reach one launched here (a replica on another machine is not adopted: its ssh was the launcher's).
     * {@code guard} keeps it from outliving the lab. Its port offset is claimed again for this JVM.
     */
    public static Replica adopt(Launch l, OrphanGuard guard) {
        Placement placement = new Placement(l.namespace(), l.address());
        FreePorts.claimPortOffset(l.portOffset());
        long ageNanos = Math.max(0, System.currentTimeMillis() - l.launchedEpochMillis()) * 1_000_000L;
        Replica r = new Replica(l.name(), placement, l.pid(), l.portOffset(), Path.of(l.baseDir()), null,
                ProcessHandle.of(l.pid()).orElse(null), guard, System.nanoTime() - ageNanos,
                l.launchedEpochMillis(), l.recordsInlining(), l.compilesAtC2());
        r.startupTime = Duration.ZERO; // unknown here: it started before this manager led
        return r;
    }

    public String name() {
        return name;
    }

    /**
     * The OS process id of the server JVM itself (not a wrapper script or ssh), on its machine: the target of
     * injected signals.
     */
    public long pid() {
        return pid;
    }

    /** Where it runs. */
    public Placement placement() {
        return placement;
    }

    /** Its process's state on its machine. */
    public ProcessState state() {
        return placement.state(pid);
    }

    /** Sets the nice value of all its threads (lowering it needs root). */
    public void renice(int niceness) throws IOException {
        placement.renice(pid, niceness);
    }

    public int portOffset() {
        return portOffset;
    }

    public int httpPort() {
        return 8080 + portOffset;
    }

    /** WildFly's management interface (HTTP), {@code 9990+offset}. */
    public int managementPort() {
        return 9990 + portOffset;
    }

    /** Where remote EJB clients connect: {@code remote+http://<address>:<8080+offset>}. */
    public String remotingUri() {
        return "remote+http://" + address() + ":" + httpPort();
    }

    /** The address it listens on: 127.0.0.1, or its host's (on the lab's virtual network, or another machine). */
    public String address() {
        return placement.address();
    }

    public Path baseDir() {
        return baseDir;
    }

    /** Where its JVM keeps its Flight Recorder chunks (on its machine), recording or not. */
    public Path eventRepository() {
        return baseDir.resolve(EVENT_REPOSITORY);
    }

    /** Whether its JVM records what it inlines from its start into {@link #eventRepository()}. */
    public boolean recordsInlining() {
        return recordsInlining;
    }

    /** Whether its JVM compiles at C2 (not capped at a C1 tier, not interpreted only). */
    public boolean compilesAtC2() {
        return compilesAtC2;
    }

    public Path consoleLog() {
        return baseDir.resolve("console.log");
    }

    public boolean isAlive() {
        return process != null && process.isAlive();
    }

    /**
     * When its process exited, in microseconds since the epoch ({@link MicroClock}, read when this JVM learned of
     * it; for a replica gone before it was adopted, its launch); empty while it runs, and for a moment after.
     */
    public OptionalLong exitedEpochUs() {
        long t = exitedEpochUs;
        return t < 0 ? OptionalLong.empty() : OptionalLong.of(t);
    }

    /** Waits up to {@code timeout} for its process to exit; whether it has. */
    public boolean awaitExit(Duration timeout) throws InterruptedException {
        if (process == null) {
            return true;
        }
        try {
            exited.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            return !process.isAlive();
        }
    }

    /** From launch until the server reported it started with the deployment; null before {@link #awaitReady}. */
    public Duration startupTime() {
        return startupTime;
    }

    /**
     * Waits until the server has started and deployed the service.
     *
     * @throws IOException if the server exits or starts with errors (the message quotes its console log)
     * @throws TimeoutException if it is not up within {@code timeout}
     */
    public void awaitReady(Duration timeout) throws IOException, TimeoutException, InterruptedException {
        if (process == null) {
            throw new IOException("replica " + name + " was gone before this manager took it over; see "
                    + consoleLog());
        }
        Boolean started = ProcessTools.awaitOutput(launched != null ? launched.toHandle() : process, consoleLog(),
                timeout,
                console -> console.contains(STARTED) ? Boolean.TRUE
                        : console.contains(STARTED_WITH_ERRORS) ? Boolean.FALSE : null);
        String console = ProcessTools.readOutput(consoleLog());
        if (Boolean.TRUE.equals(started)) {
            startupTime = Duration.ofNanos(System.nanoTime() - launchedNanos);
            return;
        }
        if (Boolean.FALSE.equals(started)) {
            throw new IOException("replica " + name + " started with errors; see " + consoleLog() + ":\n"
                    + errorLines(console));
        }
        if (!isAlive()) {
            throw new IOException("replica " + name + " exited" + (launched == null ? ""
                    : " with status " + launched.exitValue())
                    + " while starting; see " + consoleLog() + ":\n" + tail(console, 15));
        }
        throw new TimeoutException("replica " + name + " not ready after " + timeout.toSeconds() + " s; see "
                + consoleLog());
    }

    /** Graceful stop (SIGTERM lets WildFly shut down cleanly), SIGKILL after a grace period. */
    public void stop() {
        if (placement.isRemote() && launched.isAlive()) {
            // The server there, not the ssh here: its ssh ends when it has stopped.
            try {
                placement.signal(pid, "TERM");
                if (!launched.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    placement.signal(pid, "KILL");
                    launched.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (IOException e) {
                // gone already, or the host does not answer: ending the ssh below sets off its dead-man switch
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (process != null) {
            ProcessTools.terminate(launched != null ? launched.toHandle() : process, STOP_GRACE);
        }
        guard.close();
        FreePorts.releasePortOffset(portOffset);
        if (!placement.isRemote()) {
            Jcmd.forget(pid);
        }
    }

    /**
     * SIGKILL: here sent directly by the JDK (no kill(1) process to fork: this is on the fail-over path); on another
     * machine over the host's shared connection (if that fails, ending the ssh sets off its dead-man switch).
     */
    public void kill() {
        if (placement.isRemote()) {
            try {
                placement.signal(pid, "KILL");
                return;
            } catch (IOException e) {
                // gone already, or the host does not answer: end the ssh
            }
        }
        if (launched != null) {
            launched.destroyForcibly();
        } else if (process != null) {
            process.destroyForcibly();
        }
    }

    /**
     * Lets go of it without stopping it (a manager that no longer leads: the next leader adopts it); its guard, which
     * watches the lab, stays.
     */
    public void release() {
        FreePorts.releasePortOffset(portOffset);
    }

    /** Sends a real signal to the server JVM: KILL (crash), STOP (hang), CONT (resume). */
    public void signal(String signalName) throws IOException {
        placement.signal(pid, signalName);
    }

    @Override
    public void close() {
        stop();
    }

    private static String errorLines(String console) {
        // WildFly's failure descriptions span lines; the "failure description" lines say what went wrong.
        List<String> errors = console.lines().filter(l -> l.contains("failure description") || l.contains("WFLYCTL0412"))
                .limit(10).toList();
        return errors.isEmpty() ? tail(console, 15) : String.join("\n", errors);
    }

    private static String tail(String text, int lines) {
        List<String> all = text.lines().toList();
        return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    }

    @Override
    public String toString() {
        return "Replica[" + name + ", pid " + pid() + ", " + remotingUri() + "]";
    }

    /**
     * The number in a replica's name ({@code r12}: 12), which the manager gives in launch order; -1 for a name
     * without one.
     */
    public static int launchNumber(String name) {
        String digits = name.replaceAll("\\D", "");
        return digits.isEmpty() ? -1 : Integer.parseInt(digits);
    }
}
