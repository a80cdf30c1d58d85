package org.ftlab.harness.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.ftlab.os.AtomicFiles;
import org.ftlab.os.ChildJvm;
import org.ftlab.os.Janitor;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.NetworkLayout;

/**
 * Runs an ftlab command with every part of the lab on a host of its own ({@code --topology netns}): this process
 * makes the virtual network (the switch, the manager's host, the clients' host), writes it to the run directory's
 * {@value NetworkLayout#FILE}, and runs the same command again inside the clients' host, where the harness and its
 * clients run; the manager it starts runs on the manager's host and adds the database's and every replica's. When the
 * command ends — normally, on Ctrl-C, or when this process is killed (a janitor watches it) — every namespace of
 * the lab, and with it every link and rule, is removed.
 */
public final class NetworkedRun {
    /** Set in the command run inside the clients' host: the path of the network's layout. */
    public static final String ENV = "FTLAB_NETWORK";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A process runs one networked command: its network is removed once. */
    private static final AtomicBoolean REMOVED =
            new AtomicBoolean();

    private NetworkedRun() {
    }

    /** The network this process runs in, if it is the command run inside the clients' host. */
    public static Optional<NetworkLayout> current() throws IOException {
        String file = System.getenv(ENV);
        if (file == null || file.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(JSON.readValue(Path.of(file).toFile(), NetworkLayout.class));
    }

    /**
     * Makes the network, runs {@code mainClass} with {@code args} (this command's own, with {@code --out runDir}) in
     * the clients' host, waits for it and removes the network; returns the command's exit status. {@code home}: the
     * project root.
     */
    public static int run(Path runDir, Path home, String mainClass, List<String> args, PrintWriter out) throws IOException,
            InterruptedException {
        VirtualNetwork.unusable().ifPresent(why -> {
            throw new IllegalArgumentException(why);
        });
        Files.createDirectories(runDir);
        VirtualNetwork net = VirtualNetwork.create();
        Janitor janitor = Janitor.start(runDir.resolve("network-undo.sh"));
        janitor.register("network", net.removeAllScript());
        Process child = null;
        try {
            net.addHost(NetworkLayout.MANAGER_HOST);
            var clients = net.addHost(NetworkLayout.CLIENTS_HOST);
            Path layout = runDir.resolve(NetworkLayout.FILE);
            AtomicFiles.write(layout, JSON.writeValueAsString(net.layout()));
            out.printf("virtual network %s.0/24: namespaces ftlab-%s-* (switch, %s, %s; the manager adds db and "
                    + "the replicas)%n", net.layout().prefix(), net.layout().tag(), NetworkLayout.MANAGER_HOST,
                    NetworkLayout.CLIENTS_HOST);
            out.flush();
            List<String> cmd = ChildJvm.command(mainClass, "-Dftlab.home=" + home.toAbsolutePath());
            cmd.addAll(args);
            ProcessBuilder pb = new ProcessBuilder(clients.wrap(cmd)).inheritIO();
            pb.environment().put(ENV, layout.toString());
            child = pb.start();
            Process running = child;
            Thread forward = new Thread(() -> {
                // SIGTERM or Ctrl-C of this process: the command stops as it would (Ctrl-C reaches it too, through
                // the terminal's process group), then the network goes.
                running.destroy();
                try {
                    running.waitFor(90, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                removeQuietly(net, janitor);
            }, "ftlab-network-stop");
            Runtime.getRuntime().addShutdownHook(forward);
            int code = child.waitFor();
            try {
                Runtime.getRuntime().removeShutdownHook(forward);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: it removes the network
            }
            return code;
        } finally {
            if (child != null && child.isAlive()) {
                child.destroyForcibly();
            }
            removeQuietly(net, janitor);
        }
    }

    /** Removes the network once, whether the command ended or this process was told to stop (or both at once). */
    private static void removeQuietly(VirtualNetwork net, Janitor janitor) {
        if (!REMOVED.compareAndSet(false, true)) {
            return;
        }
        try {
            net.removeAll();
            if (!net.anyLeft()) {
                janitor.done("network");
                janitor.close();
            }
        } catch (IOException e) {
            System.err.println("ftlab: could not remove the virtual network (the janitor retries when ftlab exits): "
                    + e.getMessage());
        }
    }
}
