package org.ftlab.os.net;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.ftlab.os.Janitor;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.Undo;
import org.ftlab.rm.api.NetworkLayout;

/**
 * The lab's hosts on a virtual network (Linux network namespaces as root): one switch namespace holding a bridge,
 * and one namespace per host with a veth link to the bridge and its own address. Nothing is added to the machine's
 * own namespace, so removing the lab's namespaces removes every link and rule with them. Network faults are made
 * here: a host's link down, a partition between two sets of hosts (or one way only), TCP resets and random drops
 * (nftables in the host's namespace), a bandwidth limit (tbf on both ends of the host's link). tc netem is not used:
 * many kernels lack it.
 */
public final class VirtualNetwork {
    private static final String BRIDGE = "br0";
    private static final String LINK = "eth0";
    private final NetworkLayout layout;

    private VirtualNetwork(NetworkLayout layout) {
        this.layout = layout;
    }

    /** Why this machine cannot run a virtual network, or empty: it needs root, ip and tc, nft, and nsenter. */
    public static Optional<String> unusable() {
        if (!isRoot()) {
            return Optional.of("--topology netns needs root (network namespaces, nftables): run as root, or use "
                    + "--topology local");
        }
        for (String[] tool : new String[][] {{"ip", "iproute2"}, {"tc", "iproute2"}, {"nft", "nftables"},
            {"nsenter", "util-linux"}}) {
            if (!onPath(tool[0])) {
                return Optional.of("--topology netns needs the '" + tool[0] + "' command: install it (Debian: apt-get "
                        + "install " + tool[1] + ")");
            }
        }
        return Optional.empty();
    }

    static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2].equals("0"); // effective uid
                }
            }
        } catch (IOException e) {
            // no /proc: not Linux
        }
        return false;
    }

    private static boolean onPath(String command) {
        for (String dir : (System.getenv().getOrDefault("PATH", "/usr/sbin:/usr/bin:/sbin:/bin") + ":/usr/sbin:/sbin")
                .split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** A new network: a fresh tag, the switch namespace and its bridge. */
    public static VirtualNetwork create() throws IOException {
        String tag = String.format(Locale.ROOT, "%06x", new SecureRandom().nextInt(1 << 24));
        VirtualNetwork net = new VirtualNetwork(new NetworkLayout(tag, "10.213.0"));
        String sw = net.layout.switchNamespace();
        ip(null, "netns add " + sw + "\n");
        ip(sw, "link add " + BRIDGE + " type bridge\n"
                + "link set " + BRIDGE + " up\n"
                + "link set lo up\n");
        return net;
    }

    /** The network another process made (the manager joins the harness's). */
    public static VirtualNetwork attach(NetworkLayout layout) {
        return new VirtualNetwork(layout);
    }

    public NetworkLayout layout() {
        return layout;
    }

    /** Adds host {@code host}: its namespace, its link to the bridge, its address. */
    public Placement addHost(String host) throws IOException {
        String ns = layout.namespace(host);
        String sw = layout.switchNamespace();
        String peer = peer(host);
        ip(null, "netns add " + ns + "\n"
                + "link add " + LINK + " netns " + ns + " type veth peer name " + peer + " netns " + sw + "\n");
        ip(ns, "addr add " + layout.address(host) + "/24 dev " + LINK + "\n"
                + "link set lo up\n"
                + "link set " + LINK + " up\n");
        ip(sw, "link set " + peer + " master " + BRIDGE + " up\n");
        return placement(host);
    }

    /** Where host {@code host} runs (it must have been added, by this process or another). */
    public Placement placement(String host) {
        return new Placement(layout.namespace(host), layout.address(host));
    }

    /** Removes host {@code host} and its link (its processes must be gone: they would run on unreachable). */
    public void removeHost(String host) {
        try {
            ip(null, "netns del " + layout.namespace(host) + "\n");
        } catch (IOException e) {
            // already gone
        }
    }

    /** The processes running in host {@code host}'s namespace. */
    public List<Long> pids(String host) throws IOException {
        List<Long> pids = new ArrayList<>();
        for (String line : ProcessTools.run(List.of("ip", "netns", "pids", layout.namespace(host)), null).split("\n")) {
            if (!line.isBlank()) {
                pids.add(Long.parseLong(line.strip()));
            }
        }
        return pids;
    }

    /**
     * Shell commands that remove every namespace of this lab (killing what still runs in them), for the janitor and
     * for the end of a run. The janitors in there are spared: once the manager is gone, the manager's undoes the
     * faults it left (a frozen or throttled replica's cgroup), which no namespace removal would.
     */
    public String removeAllScript() {
        String prefix = "ftlab-" + layout.tag() + "-";
        return "for ns in $(ip netns list 2>/dev/null | cut -d' ' -f1 | grep '^" + prefix + "'); do "
                + "for p in $(ip netns pids $ns 2>/dev/null); do "
                + "case \"$(tr '\\0' ' ' < /proc/$p/cmdline 2>/dev/null)\" in *" + Janitor.NAME + "*) ;; "
                + "*) kill -KILL $p 2>/dev/null ;; esac; done; "
                + "ip netns del $ns 2>/dev/null; done";
    }

    /** Removes every namespace of this lab. */
    public void removeAll() throws IOException {
        ProcessTools.run(List.of("sh", "-c", removeAllScript()), null);
    }

    /** Whether any namespace of this lab is left. */
    public boolean anyLeft() throws IOException {
        return ProcessTools.run(List.of("ip", "netns", "list"), null).lines()
                .anyMatch(l -> l.startsWith("ftlab-" + layout.tag() + "-"));
    }

    // ---- network faults ---------------------------------------------------------------------------------------

    /** Host {@code host}'s link down (the bridge's end of its veth pair), until undone. */
    public Undo linkDown(String host) throws IOException {
        String sw = layout.switchNamespace();
        ip(sw, "link set " + peer(host) + " down\n");
        return Undo.of("ip -n " + sw + " link set " + peer(host) + " up 2>/dev/null", () -> {
            try {
                ip(sw, "link set " + peer(host) + " up\n");
            } catch (IOException e) {
                // the host is gone
            }
        });
    }

    /**
     * Every packet between hosts {@code side} and hosts {@code other} dropped, both ways: an nftables table in each
     * host of {@code side} that drops what comes from or goes to {@code other}'s addresses.
     */
    public Undo partition(String table, List<String> side, List<String> other) throws IOException {
        String addresses = "{ " + String.join(", ", other.stream().map(layout::address).toList()) + " }";
        String rules = "ip saddr " + addresses + " drop";
        String outRules = "ip daddr " + addresses + " drop";
        return nftInHosts(table, side, rules, outRules);
    }

    /**
     * Every TCP segment between host {@code host} and host {@code peer} answered with a reset, both ways, as a peer
     * that resets its connections does (Toxiproxy's {@code reset_peer}): an nftables table in {@code host} that rejects
     * what comes from {@code peer} with a reset (the peer's socket is reset) and what goes to it likewise (the local
     * socket is reset). Open connections break at their next segment; new ones are refused. Other protocols pass.
     */
    public Undo tcpReset(String table, String host, String peer) throws IOException {
        String address = layout.address(peer);
        return nftInHosts(table, List.of(host), "ip saddr " + address + " meta l4proto tcp reject with tcp reset",
                "ip daddr " + address + " meta l4proto tcp reject with tcp reset");
    }

    /**
     * A partition in one direction only: every packet from host {@code from} to host {@code to} dropped as it leaves
     * {@code from}; what {@code to} sends to {@code from} still arrives. (TCP needs both directions: a connection
     * either way stalls, while UDP and a stream's one-way bytes from {@code to} still flow.)
     */
    public Undo oneWay(String table, String from, String to) throws IOException {
        return nftInHosts(table, List.of(from), null, "ip daddr " + layout.address(to) + " drop");
    }

    /** {@code percent} % of host {@code host}'s packets dropped at random, both ways (nftables numgen). */
    public Undo flaky(String table, String host, double percent) throws IOException {
        String rule = "numgen random mod 10000 < " + Math.round(percent * 100) + " drop";
        return nftInHosts(table, List.of(host), rule, rule);
    }

    /** Host {@code host}'s bandwidth limited to {@code kbitPerS} both ways: tbf on both ends of its link. */
    public Undo bandwidth(String host, double kbitPerS) throws IOException {
        String ns = layout.namespace(host);
        String sw = layout.switchNamespace();
        String rate = Math.round(kbitPerS) + "kbit";
        // burst: at least one full-size packet per tick; latency bounds the queue (its packets wait, the rest drop)
        String tbf = " root tbf rate " + rate + " burst 16kb latency 500ms";
        tc(ns, "qdisc add dev " + LINK + tbf);
        try {
            tc(sw, "qdisc add dev " + peer(host) + tbf);
        } catch (IOException e) {
            tc(ns, "qdisc del dev " + LINK + " root");
            throw e;
        }
        return Undo.of("ip netns exec " + ns + " tc qdisc del dev " + LINK + " root 2>/dev/null; ip netns exec " + sw
                + " tc qdisc del dev " + peer(host) + " root 2>/dev/null", () -> {
                    for (String[] end : new String[][] {{ns, LINK}, {sw, peer(host)}}) {
                        try {
                            tc(end[0], "qdisc del dev " + end[1] + " root");
                        } catch (IOException e) {
                            // gone with its host
                        }
                    }
                });
    }

    /** A table {@code table} in each of {@code hosts} with {@code inRule} (null: none) and {@code outRule}. */
    private Undo nftInHosts(String table, List<String> hosts, String inRule, String outRule) throws IOException {
        List<String> done = new ArrayList<>();
        StringBuilder script = new StringBuilder();
        try {
            for (String host : hosts) {
                String ns = layout.namespace(host);
                ProcessTools.run(List.of("ip", "netns", "exec", ns, "nft", "-f", "-"), "table ip " + table + " {\n"
                        + (inRule == null ? ""
                                : "  chain in { type filter hook input priority 0; policy accept; " + inRule + "; }\n")
                        + "  chain out { type filter hook output priority 0; policy accept; " + outRule + "; }\n"
                        + "}\n");
                done.add(ns);
                script.append(script.length() == 0 ? "" : "; ").append("ip netns exec ").append(ns)
                        .append(" nft delete table ip ").append(table).append(" 2>/dev/null");
            }
        } catch (IOException e) {
            for (String ns : done) {
                deleteTable(ns, table);
            }
            throw e;
        }
        return Undo.of(script.toString(), () -> done.forEach(ns -> deleteTable(ns, table)));
    }

    private static void deleteTable(String ns, String table) {
        try {
            ProcessTools.run(List.of("ip", "netns", "exec", ns, "nft", "delete", "table", "ip", table), null);
        } catch (IOException e) {
            // gone with its host
        }
    }

    /** The bridge's end of host {@code host}'s link. */
    private static String peer(String host) {
        return "v" + host;
    }

    /** {@code ip} commands, one per line, in namespace {@code ns} (null: this process's). */
    private static void ip(String ns, String batch) throws IOException {
        ProcessTools.run(ns == null ? List.of("ip", "-batch", "-") : List.of("ip", "-n", ns, "-batch", "-"), batch);
    }

    private static void tc(String ns, String args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns, "tc"));
        cmd.addAll(List.of(args.split(" ")));
        ProcessTools.run(cmd, null);
    }
}
