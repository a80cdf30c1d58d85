package org.ftlab.harness.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.ftlab.harness.cli.FtlabCommand;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.FaultsCsv;
import org.ftlab.os.Placement;
import org.ftlab.os.ProcessTools;
import org.ftlab.os.net.Hosts;
import org.ftlab.os.net.VirtualNetwork;
import org.ftlab.rm.api.FaultKind;
import org.junit.jupiter.api.Test;

/**
 * {@code ftlab grid --hosts FILE} end to end against real OpenSSH servers: the test makes three machines (network
 * namespaces on one bridge, this JVM attached to it), starts an sshd on each with a key of its own, and runs a small
 * grid with the database on one machine and the replicas on the other two, a fault of every process and database kind
 * (a crash of the primary first) made over SSH on its machine.
 * One replica machine sees its own, empty, provisioned-server and run directories (a private mount namespace), so
 * the lab must copy the server and the replicas' configuration there. Needs root and sshd (CI installs
 * openssh-server); skipped otherwise with the reason.
 */
class RemoteHostsIT {
    private static final FaultKind CRASH = FaultKind.parse("crash");
    private static final Path SSHD = Path.of("/usr/sbin/sshd");

    @Test
    void aGridWithTheDatabaseAndReplicasOnMachinesReachedOverSshFailsOverARemoteCrashUndoesEveryRemoteFaultAndLeavesNothingBehind()
            throws Exception {
        assumeTrue(VirtualNetwork.unusable().isEmpty(), () -> VirtualNetwork.unusable().orElse(""));
        assumeTrue(Files.isExecutable(SSHD), "needs sshd (Debian: apt-get install openssh-server)");
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "ssh-hosts-");
        Path runs = Files.createDirectories(dir.resolve("runs"));
        Path runDir = runs.resolve("run");
        Path server = SharedLab.serverHome().toAbsolutePath();
        ProcessTools.run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("client_key")
                .toString()), null);
        ProcessTools.run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("host_key")
                .toString()), null);
        Files.copy(dir.resolve("client_key.pub"), dir.resolve("authorized_keys"));
        Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege-separation directory
        String hostKey = Files.readString(dir.resolve("host_key.pub")).strip();

        VirtualNetwork net = VirtualNetwork.create();
        String link = "ftlab-" + net.layout().tag();
        List<Process> sshds = new ArrayList<>();
        try {
            // this JVM joins the network as the clients' host: the manager, the detector and the clients run here
            ProcessTools.run(List.of("ip", "link", "add", link, "type", "veth", "peer", "name", "to-test", "netns",
                    net.layout().switchNamespace()), null);
            ProcessTools.run(List.of("ip", "-n", net.layout().switchNamespace(), "link", "set", "to-test", "master",
                    "br0", "up"), null);
            ProcessTools.run(List.of("ip", "addr", "add", net.layout().address("clients") + "/24", "dev", link), null);
            ProcessTools.run(List.of("ip", "link", "set", link, "up"), null);

            StringBuilder hosts = new StringBuilder("# three machines, each an sshd in a network namespace\n");
            StringBuilder knownHosts = new StringBuilder();
            for (String machine : List.of("db", "r1", "r2")) {
                Placement p = net.addHost(machine);
                Path config = dir.resolve("sshd-" + machine + ".conf");
                Files.writeString(config, String.join("\n", "ListenAddress " + p.address(), "Port 22",
                        "HostKey " + dir.resolve("host_key"), "PidFile " + dir.resolve("sshd-" + machine + ".pid"),
                        "AuthorizedKeysFile " + dir.resolve("authorized_keys"), "PermitRootLogin prohibit-password",
                        "PasswordAuthentication no", "KbdInteractiveAuthentication no", "UsePAM no",
                        "StrictModes no", ""));
                List<String> sshd = List.of(SSHD.toString(), "-D", "-e", "-f", config.toString());
                if (machine.equals("r2")) {
                    // its own (empty) server and run directories: the lab copies what it needs
                    sshd = List.of("unshare", "--mount", "--propagation", "private", "sh", "-c",
                            "mount -t tmpfs ftlab-test \"$1\" && mount -t tmpfs ftlab-test \"$2\" && shift 2 && "
                                    + "exec \"$@\"", "sh", server.toString(), runs.toString(), SSHD.toString(), "-D",
                            "-e", "-f", config.toString());
                }
                sshds.add(new ProcessBuilder(p.wrap(sshd)).redirectErrorStream(true)
                        .redirectOutput(dir.resolve("sshd-" + machine + ".log").toFile()).start());
                knownHosts.append(p.address()).append(' ').append(hostKey).append('\n');
                hosts.append(machine.equals("db") ? "db" : "replica").append("  root@").append(p.address())
                        .append("  identity=client_key known-hosts=known_hosts\n");
            }
            Files.writeString(dir.resolve("known_hosts"), knownHosts);
            Path hostsFile = dir.resolve("hosts");
            Files.writeString(hostsFile, hosts);
            awaitListening(net, List.of("db", "r1", "r2"));

            Path schedule = Path.of(getClass().getResource("/local-kinds-short.faults").toURI());
            StringWriter out = new StringWriter();
            int code = FtlabCommand.execute(new String[] {"grid", "--hosts", hostsFile.toString(), "--clients", "2",
                "--think", "10", "--reply", "orig", "--posts", "1400", "--views", "0", "--warmup", "0",
                "--lab-warmup", "0", "--faults-file", schedule.toString(), "--spares", "1",
                // three replicas booting side by side on the "machines" of a loaded 2-core host went silent past
                // T = 500 ms once (two false hang verdicts before the first fault); the schedule's faults need no
                // shorter T: the crash is seen by the process states, the 300 ms hang is made and undone either way
                "--heartbeat-timeout-ms", "1000",
                "--out", runDir.toString()}, new PrintWriter(out, true), new PrintWriter(out, true));
            System.out.println(out);
            assertEquals(0, code, "the command's own output went to the console: see the test's output");

            JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
            assertEquals("complete", manifest.path("status").asText());
            assertTrue(manifest.path("audit").path("passed").asBoolean(), "the exactly-once audit passed");
            assertTrue(manifest.path("topology").get(0).asText().startsWith("hosts: db on root@10.213.0.4"),
                    manifest.toString());

            List<FaultRecord> faults = FaultsCsv.readAll(runDir);
            assertEquals(List.of("crash", "slow", "db-hang", "hang", "db-slow", "freeze"),
                    faults.stream().map(f -> f.kind().wireName()).toList(),
                    "every scheduled fault was made on its machine, in order");
            for (FaultRecord f : faults) {
                assertTrue(f.repairedUs() >= f.injectedUs(), f + " was repaired");
            }
            FaultRecord crash = faults.get(0);
            assertEquals(CRASH, crash.kind());
            assertEquals(1, crash.failures(), "the crash failed its replica");
            assertTrue(crash.detectedUs() >= crash.injectedUs() && crash.promotedUs() >= crash.detectedUs(),
                    crash.toString());
            String detector = Files.readString(runDir.resolve("fd/detector.log"));
            assertTrue(detector.contains("kind=crash"), "the detector learnt from the replica's machine that its "
                    + "process was gone: " + detector);

            // r2 saw none of this machine's server: the lab copied it there
            Placement r2 = Placement.on(Hosts.read(hostsFile).replicas().get(1));
            assertTrue(r2.run("ls -a '" + server + "'").contains(".ftlab-mirror-id"), "the server was copied to r2");

            // before the machines go (removing them would end whatever the lab left there)
            NetnsGridIT.assertNothingLeft(runDir);
            try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
                List<String> masters = all.filter(p -> p.info().commandLine().map(c -> c.contains("ftlab-ssh-"))
                        .orElse(false)).map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
                assertTrue(masters.isEmpty(), "ssh master connections left: " + masters);
            }
        } finally {
            for (Process sshd : sshds) {
                ProcessTools.terminate(sshd.toHandle(), Duration.ofSeconds(10));
            }
            net.removeAll(); // the bridge's namespace goes, and the test's link with it
        }
        for (int i = 0; i < 100 && ProcessTools.run(List.of("ip", "link", "show"), null).contains(link); i++) {
            Thread.sleep(100); // the kernel removes a namespace's links after the namespace, asynchronously
        }
        assertFalse(ProcessTools.run(List.of("ip", "link", "show"), null).contains(link), "the test's link is gone");
    }

    private static void awaitListening(VirtualNetwork net, List<String> machines) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        for (String machine : machines) {
            String address = net.layout().address(machine);
            while (true) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(address, 22), 1000);
                    break;
                } catch (IOException e) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("sshd on " + machine + " did not start; see its log", e);
                    }
                    Thread.sleep(100);
                }
            }
        }
    }
}
