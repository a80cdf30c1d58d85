package org.ftlab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SshHostTest {
    @TempDir
    Path dir;

    private static final SshHost HOST = new SshHost("lab@10.1.0.4", 2222, "/keys/id", "10.1.0.4", null,
            List.of("UserKnownHostsFile=/keys/known"));

    @Test
    void aQuotedWordReachesTheShellUnchanged() throws Exception {
        String word = "it's $HOME `date` \"x\" \\ ;|&";
        assertEquals(word, ProcessTools.run(List.of("sh", "-c", "printf %s " + SshHost.quote(word)), null));
    }

    @Test
    void aLongRunningProcessGetsAConnectionOfItsOwnAndShortCommandsShareOne() {
        List<String> own = HOST.wrapLongRunning(List.of("/opt/jdk/bin/java", "-jar", "a b.jar"));
        assertEquals(List.of("ssh", "-p", "2222", "-o", "UserKnownHostsFile=/keys/known", "-i", "/keys/id"),
                own.subList(0, 7), "the user's options first: ssh takes the first value of an option");
        assertTrue(own.contains("ControlPath=none"));
        assertEquals("lab@10.1.0.4", own.get(own.size() - 2));
        assertTrue(own.get(own.size() - 1).endsWith(" ftlab '/opt/jdk/bin/java' '-jar' 'a b.jar'"),
                own.get(own.size() - 1));
        assertTrue(HOST.shellCommand("kill -CONT 42").contains("'ControlPath=none'"),
                "a clean-up script does not depend on a master connection that may be gone");
    }

    @Test
    void theRemoteSideNamesItsPidRunsTheCommandAndExitsWithItsStatus() throws Exception {
        Process p = new ProcessBuilder(remoteSide("sh", "-c", "echo hello; exit 3")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(3, p.waitFor());
        // the command runs in the background of the remote shell: its output and the pid line may come in any order
        assertTrue(out.lines().anyMatch(l -> l.matches("ftlab-remote-pid \\d+")) && out.lines()
                .anyMatch(l -> l.equals("hello")), out);
    }

    @Test
    void theRemoteProcessIsStoppedWhenItsConnectionGoes() throws Exception {
        Path console = dir.resolve("console.log");
        // the outer shell stands for the session's sshd: the command's parent, gone when the connection goes
        List<String> session = new ArrayList<>(List.of("sh", "-c", "\"$@\"; :", "sshd"));
        session.addAll(remoteSide("sleep", "300"));
        Process sshd = new ProcessBuilder(session).redirectErrorStream(true).redirectOutput(console.toFile()).start();
        long pid = HOST.remotePid(sshd, console);
        assertNotEquals(sshd.pid(), pid);
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "the command runs");
        sshd.destroyForcibly();
        sshd.waitFor();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                "the dead-man switch ended the command");
    }

    /** What the host runs for {@link SshHost#wrapLongRunning}: the last word of its ssh command, run by sh here. */
    private static List<String> remoteSide(String... argv) {
        List<String> ssh = HOST.wrapLongRunning(List.of(argv));
        return List.of("sh", "-c", ssh.get(ssh.size() - 1));
    }

    @Test
    void aDirectoryHasTheSameContentIdUntilAFileChanges() throws Exception {
        Files.writeString(dir.resolve("a"), "one");
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/b"), "two");
        String id = SshHost.contentId(dir);
        assertEquals(id, SshHost.contentId(dir));
        Files.writeString(dir.resolve(".ftlab-mirror-probe"), "ignored");
        assertEquals(id, SshHost.contentId(dir), "the mirror's own marker files do not count");
        Files.writeString(dir.resolve("sub/b"), "three");
        assertNotEquals(id, SshHost.contentId(dir));
    }
}
