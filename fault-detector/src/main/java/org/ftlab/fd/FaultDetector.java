package org.ftlab.fd;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.Receiver;
import org.jgroups.View;

/**
 * The Fault Detector process: a member of the heartbeat group placed first in its views ({@link DetectorFirstPolicy}),
 * so a detector coordinates it; a lab of several managers runs one detector per manager, the others standing by in the
 * same group (JGroups passes a crash's suspicion up in the member that coordinates once the suspects are out: a
 * standby reports when the first detector is among them, or gone, and coordinates next). Every replica joins
 * the group; when JGroups suspects one (FD_SOCK2: its sockets closed; FD_ALL3: no heartbeat for T ms), the detector
 * classifies the failure from the process state (crash or hang), logs it, and notifies the Replication Manager with
 * the detection time. It reports each member incarnation once; the Replication Manager decides what to do.
 */
public final class FaultDetector implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(FaultDetector.class.getName());

    private final JChannel channel;
    /** Where failures are reported: the manager, or the leader of several. */
    private final ManagerDoor managers;
    private final BufferedWriter log;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    /** Environment variable holding the Replication Manager's token. */
    public static final String TOKEN_ENV = "FTLAB_RM_TOKEN";
    private final Set<String> reported = ConcurrentHashMap.newKeySet();
    private final String authorization = "Bearer " + System.getenv().getOrDefault(TOKEN_ENV, "");
    /** How long a failure report is retried while no manager takes it (several managers electing a new leader). */
    private static final Duration REPORT_DEADLINE = Duration.ofSeconds(60);
    /** How long a raw suspect whose process still exists is watched for its exit. */
    private static final long EXIT_WATCH_NANOS = 100_000_000L;
    private final ExecutorService watcher = Executors
            .newCachedThreadPool(r -> {
                Thread t = new Thread(r, "exit-watch");
                t.setDaemon(true);
                return t;
            });
    private volatile View lastView;
    private final Map<String, Long> joinedEpochMicros = new ConcurrentHashMap<>();
    /** Where a suspect's process state comes from: null, this machine's /proc; else the manager at this URL. */
    private final URI processStateEndpoint;

    private FaultDetector(JChannel channel, ManagerDoor managers, BufferedWriter log, URI processStateEndpoint) {
        this.channel = channel;
        this.managers = managers;
        this.log = log;
        this.processStateEndpoint = processStateEndpoint;
    }

    /** Joins the group as {@code fd} on 127.0.0.1:{@code port} and starts reporting to {@code rmUrl}/failure. */
    public static FaultDetector start(int port, String rmUrl, long heartbeatMillis, long timeoutMillis, Path logFile)
            throws Exception {
        return start("127.0.0.1", port, rmUrl, heartbeatMillis, timeoutMillis, logFile);
    }

    /** Joins the group as {@code fd} on {@code address}:{@code port} and starts reporting to {@code rmUrl}/failure. */
    public static FaultDetector start(String address, int port, String rmUrl, long heartbeatMillis,
            long timeoutMillis, Path logFile) throws Exception {
        return start(address, port, rmUrl, heartbeatMillis, timeoutMillis, logFile, false);
    }

    /**
     * As above; {@code remoteReplicas}: the replicas run on other machines, so a suspect's process state is asked of
     * the manager ({@code POST rmUrl/process-state}), which asks the replica's host, instead of read from /proc here.
     * {@code rmUrl}: the members' addresses, comma-separated, in a lab of several managers (reports go to the leader).
     */
    public static FaultDetector start(String address, int port, String rmUrl, long heartbeatMillis,
            long timeoutMillis, Path logFile, boolean remoteReplicas) throws Exception {
        return start(HeartbeatStack.DETECTOR, address, port, address + "[" + port + "]", rmUrl, heartbeatMillis,
                timeoutMillis, logFile, remoteReplicas);
    }

    /**
     * One of a lab's detectors, named {@code name} ({@link HeartbeatStack#detectorName}): it joins the group through
     * {@code initialHosts} (every detector's {@code address[port]}, comma-separated, as the replicas are given them).
     * Each reports the suspicions its stack passes up: a crash in the one that coordinates once the suspects are out
     * (a standby, when the first detector is among them), a hang in any. A report the manager already has is
     * answered as stale: the leader acts on the first.
     */
    public static FaultDetector start(String name, String address, int port, String initialHosts, String rmUrl,
            long heartbeatMillis, long timeoutMillis, Path logFile, boolean remoteReplicas) throws Exception {
        if (HeartbeatStack.detectorIndex(name) == 0) {
            throw new IllegalArgumentException("a detector's name is fd, fd2, fd3, ...; was " + name);
        }
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        BufferedWriter log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        JChannel channel;
        synchronized (FaultDetector.class) { // the stack reads these properties as it is created
            System.setProperty("ftlab.hb.bind_addr", address);
            System.setProperty("ftlab.hb.bind_port", Integer.toString(port));
            System.setProperty("ftlab.hb.initial_hosts", initialHosts);
            System.setProperty("ftlab.hb.interval_ms", Long.toString(heartbeatMillis));
            System.setProperty("ftlab.hb.timeout_ms", Long.toString(timeoutMillis));
            channel = HeartbeatStack.create(name);
        }
        ManagerDoor managers = new ManagerDoor(rmUrl, System.getenv().getOrDefault(TOKEN_ENV, ""));
        FaultDetector fd = new FaultDetector(channel, managers, log,
                remoteReplicas ? URI.create(managers.first() + "/process-state") : null);
        HeartbeatStack.rawTap(channel).setListener(suspects -> fd.onSuspicion(suspects, false));
        HeartbeatStack.verifiedTap(channel).setListener(suspects -> fd.onSuspicion(suspects, true));
        channel.setReceiver(new Receiver() {
            @Override
            public void viewAccepted(View view) {
                fd.onView(view);
            }
        });
        channel.connect(HeartbeatStack.CLUSTER);
        fd.logLine("ready name=" + name + " coordinator=" + channel.getView().getCoord() + " port=" + port + " H="
                + heartbeatMillis + "ms T=" + timeoutMillis + "ms");
        return fd;
    }

    private void onView(View view) {
        long now = epochMicros();
        for (Address member : view.getMembers()) {
            joinedEpochMicros.putIfAbsent(member.toString(), now);
        }
        logLine("view " + view);
        View before = lastView;
        lastView = view;
        if (before != null) {
            for (Address back : View.newMembers(before, view)) {
                // Reported, yet back in the group (a false suspicion the manager did not act on, healed by a
                // merge): watched afresh, or its next failure would never be reported.
                MemberName member = MemberName.parse(back.toString());
                if (member != null && reported.remove(back.toString())) {
                    logLine("rejoined replica=" + member.replica() + " pid=" + member.pid()
                            + " after its report; watched again");
                }
            }
            for (Address gone : View.leftMembers(before, view)) {
                MemberName member = MemberName.parse(gone.toString());
                if (member != null && !reported.contains(gone.toString())) {
                    // left on its own (a replica stopped by the manager), or excluded on another member's suspicion
                    logLine("left replica=" + member.replica() + " pid=" + member.pid() + " unreported");
                }
            }
        }
    }

    /** The heartbeat group as this detector sees it, coordinator first, by member name. */
    public List<String> members() {
        View view = channel.getView();
        return view == null ? List.of() : view.getMembers().stream().map(Address::toString).toList();
    }

    /**
     * A raw suspicion is reported only if the process is gone (a certain crash, reported milliseconds after it);
     * a live suspect is left to VERIFY_SUSPECT, whose verified suspicion is reported as a hang. Raw suspicions of
     * live members happen (a member busy joining) and VERIFY_SUSPECT clears them.
     */
    private void onSuspicion(Collection<Address> suspects, boolean verified) {
        long detected = epochMicros();
        for (Address suspect : suspects) {
            String name = suspect.toString();
            MemberName member = MemberName.parse(name);
            if (member == null || reported.contains(name)) {
                continue; // the detector itself, or already reported
            }
            FailureKind kind = kindOf(member);
            if (!verified && kind == FailureKind.HANG) {
                // A killed process closes its sockets while the kernel is still tearing it down: it is not yet a
                // zombie. Watch it briefly off the JGroups thread before leaving it to verification.
                watchBriefly(member, name, detected);
                continue;
            }
            if (!reported.add(name)) {
                continue;
            }
            logLine("failure replica=" + member.replica() + " pid=" + member.pid() + " kind=" + kind.wireName()
                    + " detected_epoch_us=" + detected + (verified ? " (verified)" : " (raw)"));
            notifyManager(member, kind, detected);
        }
    }

    private void watchBriefly(MemberName member, String name, long detected) {
        watcher.execute(() -> {
            // a process on another machine is asked about through the manager: tens of ms a question
            long until = System.nanoTime() + (processStateEndpoint == null ? EXIT_WATCH_NANOS : 10 * EXIT_WATCH_NANOS);
            while (System.nanoTime() < until) {
                if (kindOf(member) == FailureKind.CRASH) {
                    if (reported.add(name)) {
                        logLine("failure replica=" + member.replica() + " pid=" + member.pid()
                                + " kind=crash detected_epoch_us=" + detected + " (raw)");
                        notifyManager(member, FailureKind.CRASH, detected);
                    }
                    return;
                }
                LockSupport.parkNanos(1_000_000L);
            }
            logLine("suspicion replica=" + member.replica() + " pid=" + member.pid()
                    + " process alive; left to verification");
        });
    }

    /** Crash if the suspect's process is gone, else hang: from /proc here, or from its host through the manager. */
    private FailureKind kindOf(MemberName member) {
        if (processStateEndpoint == null) {
            return FailureKind.ofProcess(member.pid());
        }
        HttpRequest request = formPost(processStateEndpoint,
                new ProcessStateQuery(member.replica(), member.pid()).toForm());
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                return ProcessStateQuery.parseReply(response.body()) == ProcessState.GONE ? FailureKind.CRASH
                        : FailureKind.HANG;
            }
            logLine("process-state-refused replica=" + member.replica() + " status=" + response.statusCode());
        } catch (IOException e) {
            logLine("process-state-failed replica=" + member.replica() + " error=" + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return FailureKind.HANG; // not known to be gone: a hang, once verification confirms the suspicion
    }

    /** A form posted to the manager with its token. */
    private HttpRequest formPost(URI endpoint, String form) {
        return HttpRequest.newBuilder(endpoint)
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.ofString(form)).build();
    }

    private void notifyManager(MemberName member, FailureKind kind, long detectedEpochMicros) {
        String form = new FailureReport(member.replica(), member.pid(), kind, detectedEpochMicros).toForm();
        watcher.execute(() -> {
            try {
                long t0 = System.nanoTime();
                AtomicInteger tries = new AtomicInteger();
                HttpResponse<String> response = managers.post("/failure", form, REPORT_DEADLINE, attempt -> {
                    tries.incrementAndGet();
                    logLine("notify-retry replica=" + member.replica() + " " + attempt);
                });
                if (tries.get() > 0) {
                    logLine("notified replica=" + member.replica() + " after " + tries.get() + " retries in "
                            + (System.nanoTime() - t0) / 1_000_000 + " ms");
                }
                if (response.statusCode() != 200) {
                    logLine("notify-refused replica=" + member.replica() + " status=" + response.statusCode());
                }
            } catch (IOException e) {
                logLine("notify-failed replica=" + member.replica() + " error=" + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private synchronized void logLine(String line) {
        try {
            log.write(epochMicros() + " " + line);
            log.newLine();
            log.flush();
        } catch (IOException e) {
            LOG.log(Level.SEVERE, "cannot write the detector log", e);
        }
    }

    static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    @Override
    public void close() {
        watcher.shutdownNow();
        try {
            watcher.awaitTermination(1, TimeUnit.SECONDS); // a watch of a suspect's exit logs as it ends
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        channel.close();
        logLine("stopped");
        try {
            log.close();
        } catch (IOException e) {
            // closing a log we flushed after every line
        }
    }

    /**
     * {@code FaultDetector [--name fd|fd2|…] [--bind ADDR] --port P [--detectors ADDR[P],ADDR[P2],…] --rm-url URL
     * --heartbeat-ms H --timeout-ms T --log FILE [--process-states here|manager]}: runs until SIGTERM.
     * Prints {@code fault-detector ready} on stdout once it is the group's coordinator.
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i], args[i + 1]);
        }
        String name = opts.getOrDefault("--name", HeartbeatStack.DETECTOR);
        ProcessLog.to(Path.of(required(opts, "--log")).resolveSibling(name.equals(HeartbeatStack.DETECTOR)
                ? "fault-detector.log" : "fault-detector-" + name + ".log"));
        String bind = opts.getOrDefault("--bind", "127.0.0.1");
        int port = Integer.parseInt(required(opts, "--port"));
        FaultDetector fd = start(name, bind, port,
                opts.getOrDefault("--detectors", bind + "[" + port + "]"), required(opts, "--rm-url"),
                Long.parseLong(opts.getOrDefault("--heartbeat-ms", "100")),
                Long.parseLong(opts.getOrDefault("--timeout-ms", "500")), Path.of(required(opts, "--log")),
                opts.getOrDefault("--process-states", "here").equals("manager"));
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            fd.close();
            stop.countDown();
        }, "fault-detector-stop"));
        System.out.println("fault-detector ready");
        System.out.flush();
        stop.await();
    }

    private static String required(Map<String, String> opts, String key) {
        String v = opts.get(key);
        if (v == null) {
            // a line of the start's protocol, as "fault-detector ready" is: the manager quotes it
            System.out.println("fault-detector: missing " + key);
            System.exit(2);
        }
        return v;
    }
}
