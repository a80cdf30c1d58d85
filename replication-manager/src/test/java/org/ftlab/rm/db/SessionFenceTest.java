package org.ftlab.rm.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import org.ftlab.rm.db.SessionFence.ClientEnd;
import org.junit.jupiter.api.Test;

class SessionFenceTest {

    @Test
    void theDatabasePortComesFromTheJdbcUrlOrIsTheDefault() {
        assertEquals(41234, SessionFence.portOf("jdbc:mysql://127.0.0.1:41234/ftlab?useSSL=false"));
        assertEquals(3306, SessionFence.portOf("jdbc:mysql://db.example/ftlab"));
        assertEquals(3306, SessionFence.portOf("jdbc:mysql://h1:3307,h2:3308/ftlab"));
    }

    @Test
    void kernelSocketAddressesReadAsTheDatabaseWritesThem() {
        assertEquals("127.0.0.1", SessionFence.address("0100007F"));
        assertEquals("10.0.0.2", SessionFence.address("0200000A"));
        assertEquals("127.0.0.1", SessionFence.address("0000000000000000FFFF00000100007F"));
        assertEquals("::1", SessionFence.address("00000000000000000000000001000000"));
    }

    @Test
    void theSocketsReadOnAnotherMachineGiveTheClientEndsOfThatProcessOnly() {
        String proc = String.join("\n", "socket:[77001]", "socket:[77002]", "--tables--",
                "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
                "   0: 0B00D50A:A1B2 0400D50A:5A22 01 00000000:00000000 00:00000000 00000000     0        0 77001 1",
                "   1: 0B00D50A:A1B3 0400D50A:5A22 01 00000000:00000000 00:00000000 00000000     0        0 99999 1",
                "   2: 0B00D50A:A1B4 0400D50A:1F90 01 00000000:00000000 00:00000000 00000000     0        0 77002 1",
                "  sl  local_address                         remote_address                        st tx_queue",
                "");
        assertEquals(Set.of(new ClientEnd("10.213.0.11", 0xA1B2)), SessionFence.clientEndsIn(proc, 0x5A22),
                "its own socket to the database port; not another process's, not another port");
        assertTrue(SessionFence.clientEndsIn("--tables--\n", 3306).isEmpty(), "a process gone meanwhile");
    }

    @Test
    void aSocketLineGivesItsClientEndOnlyForTheProcessAndPortAsked() {
        String line = "   3: 0100007F:A1B2 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 "
                + "77001 1 0000000000000000 20 4 30 10 -1";
        assertEquals(new ClientEnd("127.0.0.1", 0xA1B2), SessionFence.parseSocketLine(line, 0x1F90, Set.of("77001")));
        assertNull(SessionFence.parseSocketLine(line, 3306, Set.of("77001")), "another remote port");
        assertNull(SessionFence.parseSocketLine(line, 0x1F90, Set.of("5")), "another process's socket");
    }

    @Test
    void aProcessListHostMatchesByPortAndAddressWithLocalhostForLoopback() {
        Set<ClientEnd> ends = Set.of(new ClientEnd("127.0.0.1", 40001), new ClientEnd("10.0.0.2", 40002));
        assertTrue(SessionFence.matches("localhost:40001", ends));
        assertTrue(SessionFence.matches("127.0.0.1:40001", ends));
        assertTrue(SessionFence.matches("10.0.0.2:40002", ends));
        assertFalse(SessionFence.matches("10.0.0.3:40002", ends), "the same port from another host");
        assertFalse(SessionFence.matches("localhost:40002", ends), "a loopback session is not 10.0.0.2's");
        assertFalse(SessionFence.matches("localhost:40003", ends));
        assertFalse(SessionFence.matches("localhost", ends), "a Unix-socket session");
        assertFalse(SessionFence.matches(null, ends), "a system thread");
    }

    @Test
    void aProcessesConnectionsToAPortAreFoundFromProc() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket accepted = server.accept()) {
            Set<ClientEnd> ends = SessionFence.clientEndsOf(ProcessHandle.current().pid(), server.getLocalPort());
            assertEquals(Set.of(new ClientEnd("127.0.0.1", client.getLocalPort())), ends);
        }
    }

    @Test
    void aProcessThatIsGoneHasNoConnections() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        assertEquals(Set.of(), SessionFence.clientEndsOf(p.pid(), 3306));
    }
}
