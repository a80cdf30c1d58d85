package org.ftlab.os.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.SshHost;

/**
 * The machines of a {@code --hosts} lab, read from a small text file (docs/running.md): the database on one, the
 * replicas on the others (round robin, replacements and spares too), the Replication Manager, the Fault Detector and
 * the clients on this one. One host per line:
 *
 * <pre>
 * # role    ssh destination     settings
 * db        root@10.0.0.4       identity=keys/lab_ed25519
 * replica   root@10.0.0.11      port=2222 java-home=/usr/lib/jvm/java-17-openjdk-amd64
 * replica   root@10.0.0.12      address=192.168.1.12 known-hosts=keys/known_hosts ssh-option=ConnectTimeout=5
 * manager   address=10.0.0.1
 * </pre>
 *
 * Settings: {@code port}, {@code identity} (a private key) and {@code known-hosts} (a known-hosts file; both
 * relative to the hosts file), {@code address} (where the other
 * parts reach the host; default: the destination's host, resolved), {@code java-home}, {@code ssh-option}
 * (repeatable, passed as {@code -o}). The {@code manager} line says the address the other hosts reach this machine
 * at; without it, the one the kernel routes to the database host from.
 *
 * @param database the database's host
 * @param replicas the replicas' hosts, in the file's order
 * @param managerAddress this machine's address as the other hosts reach it
 */
public record Hosts(SshHost database, List<SshHost> replicas, String managerAddress) {
    public Hosts {
        replicas = List.copyOf(replicas);
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("a hosts file names at least one replica host");
        }
    }

    /** The host of the {@code index}-th replica launched (0-based; replacements and spares count on). */
    public Placement replica(int index) {
        return Placement.on(replicas.get(Math.floorMod(index, replicas.size())));
    }

    /** The database's host. */
    public Placement databaseHost() {
        return Placement.on(database);
    }

    /** Every host, the database's first. */
    public List<SshHost> all() {
        List<SshHost> all = new ArrayList<>(List.of(database));
        all.addAll(replicas);
        return all;
    }

    /**
     * Reads a hosts file.
     *
     * @throws IllegalArgumentException naming the file, the line and what is wrong with it
     */
    public static Hosts read(Path file) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no hosts file " + file + "; see docs/running.md for its format");
        }
        Path base = file.toAbsolutePath().getParent();
        SshHost db = null;
        List<SshHost> replicas = new ArrayList<>();
        String manager = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).replaceFirst("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = file + " line " + (i + 1) + ": ";
            String[] words = line.split("\\s+");
            try {
                switch (words[0].toLowerCase(Locale.ROOT)) {
                    case "db" -> {
                        if (db != null) {
                            throw new IllegalArgumentException("a second db host; the lab has one database");
                        }
                        db = host(words, base);
                    }
                    case "replica" -> replicas.add(host(words, base));
                    case "manager" -> {
                        if (words.length != 2 || !words[1].startsWith("address=")) {
                            throw new IllegalArgumentException("write 'manager address=ADDRESS'");
                        }
                        manager = words[1].substring("address=".length());
                    }
                    default -> throw new IllegalArgumentException("unknown role '" + words[0]
                            + "'; a line starts with db, replica or manager");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage());
            }
        }
        if (db == null) {
            throw new IllegalArgumentException(file + " names no db host; add a line 'db [user@]host'");
        }
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException(file + " names no replica host; add a line 'replica [user@]host'");
        }
        return new Hosts(db, replicas, manager != null ? manager : routeSource(db.address()));
    }

    private static SshHost host(String[] words, Path base) {
        if (words.length < 2 || words[1].contains("=")) {
            throw new IllegalArgumentException(words[0] + " needs an SSH destination, [user@]host");
        }
        String destination = words[1];
        int port = 22;
        String identity = null;
        String address = null;
        String javaHome = null;
        List<String> options = new ArrayList<>();
        for (int w = 2; w < words.length; w++) {
            int eq = words[w].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + words[w] + "' is not a setting; write key=value");
            }
            String key = words[w].substring(0, eq);
            String value = words[w].substring(eq + 1);
            switch (key) {
                case "port" -> {
                    try {
                        port = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("port must be a number, was '" + value + "'");
                    }
                }
                case "identity" -> identity = base.resolve(value).toString();
                case "address" -> address = value;
                case "java-home" -> javaHome = value;
                case "known-hosts" -> options.add("UserKnownHostsFile=" + base.resolve(value));
                case "ssh-option" -> options.add(value);
                default -> throw new IllegalArgumentException("unknown setting '" + key
                        + "'; settings are port, identity, known-hosts, address, java-home and ssh-option");
            }
        }
        String hostPart = destination.substring(destination.indexOf('@') + 1);
        if (address == null) {
            try {
                address = InetAddress.getByName(hostPart).getHostAddress();
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("cannot resolve host '" + hostPart + "'; give its address=");
            }
        }
        return new SshHost(destination, port, identity, address, javaHome, options);
    }

    /** The source address the kernel uses towards {@code address}: where that host reaches this machine. */
    private static String routeSource(String address) throws IOException {
        String route = ProcessTools.run(List.of("ip", "route", "get", address), null);
        String[] words = route.strip().split("\\s+");
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i].equals("src")) {
                return words[i + 1];
            }
        }
        throw new IllegalArgumentException("no route to the db host " + address + " names this machine's address; "
                + "add a line 'manager address=ADDRESS'");
    }

    @Override
    public String toString() {
        return "db on " + database + ", replicas on " + String.join(", ", replicas.stream().map(SshHost::toString)
                .toList()) + ", manager at " + managerAddress;
    }
}
