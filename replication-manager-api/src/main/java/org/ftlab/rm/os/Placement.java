package org.ftlab.os;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.ftlab.fd.ProcessState;

/**
 * Where a process of the lab runs and listens: on this machine's loopback ({@link #LOCAL}, the local topology), in
 * a network namespace of the lab's virtual network with the address of its host there, or on another machine
 * reached over SSH ({@code --hosts}). It starts processes there and signals, renices and inspects them by their pid
 * there.
 *
 * @param namespace the network namespace, or null for the machine's own
 * @param address the address it listens on and is reached at
 * @param ssh the other machine, or null: this one
 */
public record Placement(String namespace, String address, SshHost ssh) {
    public static final Placement LOCAL = new Placement(null, "127.0.0.1", null);

    public Placement {
        if (namespace != null && ssh != null) {
            throw new IllegalArgumentException("a placement is a namespace here or another machine, not both");
        }
    }

    /** On this machine, in {@code namespace} (null: its own). */
    public Placement(String namespace, String address) {
        this(namespace, address, null);
    }

    /** On another machine. */
    public static Placement on(SshHost host) {
        return new Placement(null, host.address(), host);
    }

    /**
     * {@code command} as it must be started to run here: in a namespace, {@code nsenter --net=/run/netns/NS --},
     * which execs the command with only its network namespace changed (not {@code ip netns exec}: that also mounts a
     * fresh /sys for the command, hiding the cgroup hierarchies the manager's faults need); on another machine, over
     * a connection of its own ({@link SshHost#wrapLongRunning}), its output first naming its pid there.
     */
    public List<String> wrap(List<String> command) {
        if (ssh != null) {
            return ssh.wrapLongRunning(command);
        }
        if (namespace == null) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("nsenter", "--net=/run/netns/" + namespace, "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    /** On this machine's own network: no namespace, no SSH. */
    public boolean isLocal() {
        return namespace == null && ssh == null;
    }

    /** On another machine: pids name processes there, and files are mirrored there. */
    public boolean isRemote() {
        return ssh != null;
    }

    /** Sends a real signal ({@code KILL}, {@code STOP}, {@code CONT}, {@code TERM}) to process {@code pid} here. */
    public void signal(long pid, String signalName) throws IOException {
        if (ssh == null) {
            ProcessTools.signal(pid, signalName);
        } else {
            ssh.run("kill -" + signalName + " " + pid);
        }
    }

    /** Sets the nice value of every thread of {@code pid} here (lowering it needs root). */
    public void renice(long pid, int niceness) throws IOException {
        if (ssh == null) {
            ProcessTools.renice(pid, niceness);
        } else {
            ssh.run("renice -n " + niceness + " -p $(ls /proc/" + pid + "/task) >/dev/null");
        }
    }

    /** The state of process {@code pid} here: gone, stopped or running. */
    public ProcessState state(long pid) {
        if (ssh == null) {
            return ProcessState.of(pid);
        }
        try {
            return ProcessState.ofStat(ssh.run("cat /proc/" + pid + "/stat 2>/dev/null || true"));
        } catch (IOException e) {
            return ProcessState.RUNNING; // the host does not answer: nothing known to be wrong with the process
        }
    }

    /** Runs {@code script} with {@code sh} here and returns its output. */
    public String run(String script) throws IOException {
        return ssh == null ? ProcessTools.run(List.of("sh", "-c", script), null) : ssh.run(script);
    }

    /** The shell command that runs {@code script} here, for a clean-up script run by this machine. */
    public String shellCommand(String script) {
        return ssh == null ? script : ssh.shellCommand(script);
    }

    @Override
    public String toString() {
        return ssh != null ? ssh + " (" + address + ")" : namespace != null ? namespace + " (" + address + ")"
                : address;
    }
}
