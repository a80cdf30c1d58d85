package org.ftlab.os.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.os.SshHost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostsTest {
    @TempDir
    Path dir;

    private Hosts read(String text) throws Exception {
        Path file = dir.resolve("hosts");
        Files.writeString(file, text);
        return Hosts.read(file);
    }

    private String error(String text) {
        return assertThrows(IllegalArgumentException.class, () -> read(text)).getMessage();
    }

    @Test
    void aHostsFileNamesTheDatabaseHostTheReplicaHostsInOrderAndTheirSettings() throws Exception {
        Hosts hosts = read("""
                # the lab's machines
                db       lab@10.1.0.4   identity=keys/id known-hosts=keys/known
                replica  root@10.1.0.11 port=2222 java-home=/opt/jdk17   # first replica host
                replica  10.1.0.12      address=192.168.7.12 ssh-option=ConnectTimeout=3
                manager  address=10.1.0.1
                """);
        SshHost db = hosts.database();
        assertEquals("lab@10.1.0.4", db.destination());
        assertEquals(22, db.port());
        assertEquals(dir.resolve("keys/id").toString(), db.identity(), "relative to the hosts file");
        assertEquals(List.of("UserKnownHostsFile=" + dir.resolve("keys/known")), db.sshOptions());
        assertEquals("10.1.0.4", db.address(), "the destination's host");
        SshHost r1 = hosts.replicas().get(0);
        assertEquals(2222, r1.port());
        assertEquals("/opt/jdk17/bin/java", r1.java());
        assertNull(r1.identity());
        SshHost r2 = hosts.replicas().get(1);
        assertEquals("192.168.7.12", r2.address(), "the address the lab reaches it at, given");
        assertEquals(List.of("ConnectTimeout=3"), r2.sshOptions());
        assertEquals("10.1.0.1", hosts.managerAddress());
    }

    @Test
    void replicasReplacementsAndSparesGoRoundTheReplicaHosts() throws Exception {
        Hosts hosts = read("db 10.1.0.4\nreplica 10.1.0.11\nreplica 10.1.0.12\nmanager address=10.1.0.1\n");
        assertEquals(List.of("10.1.0.11", "10.1.0.12", "10.1.0.11", "10.1.0.12"),
                List.of(hosts.replica(0).address(), hosts.replica(1).address(), hosts.replica(2).address(),
                        hosts.replica(3).address()));
        assertTrue(hosts.replica(0).isRemote() && !hosts.replica(0).isLocal());
    }

    @Test
    void everyMistakeNamesItsLineAndSaysWhatToWrite() {
        assertEquals(dir.resolve("hosts") + " line 2: unknown role 'replicas'; a line starts with db, replica or "
                + "manager", error("db 10.1.0.4\nreplicas 10.1.0.11\n"));
        assertTrue(error("db 10.1.0.4\nreplica port=22\n").endsWith("line 2: replica needs an SSH destination, "
                + "[user@]host"));
        assertTrue(error("db 10.1.0.4 port=ssh\nreplica 10.1.0.11\n").endsWith("line 1: port must be a number, was "
                + "'ssh'"));
        assertTrue(error("db 10.1.0.4 colour=blue\n").contains("line 1: unknown setting 'colour'"));
        assertTrue(error("db 10.1.0.4 port\n").contains("line 1: 'port' is not a setting; write key=value"));
        assertTrue(error("db 10.1.0.4\ndb 10.1.0.5\n").endsWith("line 2: a second db host; the lab has one "
                + "database"));
        assertTrue(error("manager 10.1.0.1\n").endsWith("line 1: write 'manager address=ADDRESS'"));
        assertTrue(error("replica 10.1.0.11\n").endsWith("names no db host; add a line 'db [user@]host'"));
        assertTrue(error("db 10.1.0.4\n").endsWith("names no replica host; add a line 'replica [user@]host'"));
        assertTrue(error("db 10.1.0.4 port=0\nreplica 10.1.0.11\n").endsWith("line 1: an SSH port is 1 to 65535, "
                + "was 0"));
        assertEquals("no hosts file " + dir.resolve("nope") + "; see docs/running.md for its format",
                assertThrows(IllegalArgumentException.class, () -> Hosts.read(dir.resolve("nope"))).getMessage());
    }
}
