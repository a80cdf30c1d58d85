package org.ftlab.harness.lab;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.ftlab.os.OrphanGuard;
import org.ftlab.os.ProcessTools;
import org.ftlab.rm.api.ManagerEndpoint;

/**
 * The manager processes of a lab kept by several, supervised by the lab's owner as a service supervisor would: a
 * member that exits while the lab runs (fault {@code rm-crash}) is started again after {@link #RESTART_DELAY} with
 * the same command; it rejoins the managers' group from its own log, as a follower. Each member's output goes to
 * {@code rm/<member>/console.log}; every process dies with the lab's owner (its guard).
 */
final class ManagerProcesses {
    /** How long a member that exited stays down before it is started again. */
    static final Duration RESTART_DELAY = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Path runDir;
    private final Map<String, ProcessBuilder> commands;
    private final Map<String, Process> running = new ConcurrentHashMap<>();
    private final Map<String, OrphanGuard> guards = new ConcurrentHashMap<>();
    private final Map<String, Integer> restarts = new ConcurrentHashMap<>();
    private volatile boolean closing;

    /** {@code commands}: each member's command, by its id, in the members' order. */
    private ManagerProcesses(Path runDir, Map<String, ProcessBuilder> commands) {
        this.runDir = runDir;
        this.commands = commands;
    }

    /** Starts every member. */
    static ManagerProcesses start(Path runDir, Map<String, ProcessBuilder> commands) throws IOException {
        ManagerProcesses group = new ManagerProcesses(runDir, commands);
        for (String member : commands.keySet()) {
            group.startMember(member);
        }
        return group;
    }

    /** The console log of {@code member}. */
    Path console(String member) {
        return runDir.resolve("rm").resolve(member).resolve("console.log");
    }

    private void startMember(String member) throws IOException {
        Files.createDirectories(console(member).getParent());
        ProcessBuilder pb = commands.get(member).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(console(member).toFile()));
        Process p = pb.start();
        running.put(member, p);
        guards.put(member, OrphanGuard.watch(p.pid()));
        p.onExit().thenRun(() -> restartLater(member, p));
    }

    private void restartLater(String member, Process exited) {
        if (closing || running.get(member) != exited) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(RESTART_DELAY.toMillis());
                synchronized (this) {
                    if (!closing) {
                        restarts.merge(member, 1, Integer::sum);
                        startMember(member);
                    }
                }
            } catch (IOException e) {
                System.err.println("ftlab: manager " + member + " exited and could not be started again: "
                        + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "restart-" + member);
        t.setDaemon(true);
        t.start();
    }

    /** A member that has exited before the lab was ready (the lab did not start), or null. */
    String exitedMember() {
        return running.entrySet().stream().filter(e -> !e.getValue().isAlive()).map(Map.Entry::getKey).findFirst()
                .orElse(null);
    }

    /** The first member's process (a lab of one manager has only it). */
    Process first() {
        return running.get(commands.keySet().iterator().next());
    }

    /** How many times each member was started again. */
    Map<String, Integer> restarts() {
        return Map.copyOf(restarts);
    }

    /**
     * Stops the lab: the leader first (it stops every process of the lab and records the stop in the managers' view,
     * so that no other member takes the lab over when it goes), then the others.
     */
    synchronized void close(Duration grace) {
        closing = true;
        long leaderPid = -1;
        try {
            leaderPid = JSON.readValue(runDir.resolve(ManagerEndpoint.FILE).toFile(), ManagerEndpoint.class).pid();
        } catch (IOException e) {
            // no leader wrote it: the members are stopped together, the lab's processes die with the lab's owner
        }
        List<Process> all = new ArrayList<>(running.values());
        for (Process p : all) {
            if (p.pid() == leaderPid) {
                ProcessTools.terminate(p.toHandle(), grace);
            }
        }
        all.forEach(p -> ProcessTools.terminate(p.toHandle(), grace));
        guards.values().forEach(OrphanGuard::close);
    }
}
