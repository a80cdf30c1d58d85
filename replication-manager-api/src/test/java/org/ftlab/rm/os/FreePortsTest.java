package org.ftlab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FreePortsTest {

    /** Another process's claim (as another lab's manager holds it while its replica boots) keeps an offset out. */
    @Test
    void anOffsetThatAnotherProcessHasClaimedIsNotHandedOut(@TempDir Path tmp) throws Exception {
        int next = FreePorts.reservePortOffset(100);
        FreePorts.releasePortOffset(next);
        Path holder = tmp.resolve("Hold.java");
        Files.writeString(holder, """
                import java.nio.channels.FileChannel;
                import java.nio.file.*;
                public class Hold {
                    public static void main(String[] a) throws Exception {
                        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "ftlab-port-offsets");
                        Files.createDirectories(dir);
                        FileChannel c = FileChannel.open(dir.resolve(a[0] + ".lock"), StandardOpenOption.CREATE,
                                StandardOpenOption.WRITE);
                        System.out.println(c.tryLock() != null ? "held" : "busy");
                        System.in.read();
                    }
                }
                """);
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                holder.toString(), Integer.toString(next)).start();
        try {
            String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertEquals("held", line);
            int got = FreePorts.reservePortOffset(100);
            FreePorts.releasePortOffset(got);
            assertNotEquals(next, got, "offset " + next + " is claimed by another process");
        } finally {
            p.destroyForcibly().waitFor();
        }
        int again = FreePorts.reservePortOffset(100);
        FreePorts.releasePortOffset(again);
        assertEquals(next, again, "the claim ended with its process");
    }
}
