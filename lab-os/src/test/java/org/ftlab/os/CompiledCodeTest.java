package org.ftlab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JVM's code cache as {@code Compiler.codelist} lists it, and how much of a reference set is at the top tier. */
class CompiledCodeTest {
    private static final String PRIMARY = """
            12345:
            2 0 0 jdk.internal.misc.Unsafe.getReferenceVolatile(Ljava/lang/Object;J)Ljava/lang/Object; [0x1, 0x2 - 0x3]
            6138 3 0 org.ftlab.auction.server.AuctionServiceBean.postAuction(Lorg/ftlab/A;)[B [0x4, 0x5 - 0x6]
            7001 4 0 org.ftlab.auction.server.AuctionServiceBean.postAuction(Lorg/ftlab/A;)[B [0x7, 0x8 - 0x9]
            7002 4 0 org.ftlab.auction.server.AuctionServiceBean$$Lambda$2000/0x00007fee851b0658.run()V [0xa, 0xb - 0xc]
            7003 4 0 org.hibernate.internal.SessionImpl.persist(Ljava/lang/Object;)V [0xd, 0xe - 0xf]
            """;
    private static final String BACKUP = """
            999:
            51 3 0 org.ftlab.auction.server.AuctionServiceBean.postAuction(Lorg/ftlab/A;)[B [0x4, 0x5 - 0x6]
            52 4 0 org.ftlab.auction.server.AuctionServiceBean$$Lambda$1987/0x00007f0000000001.run()V [0xa, 0xb - 0xc]
            53 4 0 org.hibernate.internal.SessionImpl.persist(Ljava/lang/Object;)V [0xd, 0xe - 0xf]
            """;

    @Test
    void eachMethodKeepsItsHighestTierAndALambdaIsNamedAlikeInEveryJvm() {
        CompiledCode primary = CompiledCode.parse(PRIMARY);
        assertEquals(4, primary.tiers().get("org.ftlab.auction.server.AuctionServiceBean.postAuction(Lorg/ftlab/A;)[B"));
        assertEquals(0, primary.tiers().get(
                "jdk.internal.misc.Unsafe.getReferenceVolatile(Ljava/lang/Object;J)Ljava/lang/Object;"));
        assertTrue(primary.tiers().containsKey("org.ftlab.auction.server.AuctionServiceBean$$Lambda.run()V"),
                primary.tiers().toString());
        assertEquals(4, primary.tiers().size());
    }

    @Test
    void theShareOfAReferenceAtATierCountsTheMethodsCompiledAtThatTierOrAbove() {
        assertEquals(4, CompiledCode.parse(PRIMARY).highestTier());
        Set<String> reference = CompiledCode.parse(PRIMARY).atTier(4, m -> m.startsWith("org."));
        assertEquals(3, reference.size(), reference.toString());
        CompiledCode backup = CompiledCode.parse(BACKUP);
        // the lambda and persist at the top tier, postAuction only at C1's
        assertEquals(2 / 3.0, backup.shareAtTier(reference, 4), 1e-9);
        assertEquals(1.0, CompiledCode.parse(PRIMARY).shareAtTier(reference, 4), 1e-9);
        assertEquals(1.0, backup.shareAtTier(reference, 3), 1e-9, "at C1's tier or above: all of it");
        assertTrue(Double.isNaN(backup.shareAtTier(Set.of(), 4)));
        assertEquals(Map.of(), CompiledCode.parse("12345:\n").tiers());
        assertEquals(-1, CompiledCode.parse("12345:\n").highestTier());
    }

    /** A child that runs one method until C2 has compiled it, then idles until its standard input closes. */
    public static final class Hot {
        static long sum;

        static long work(long x) {
            return x * 31 + (x >>> 3);
        }

        public static void main(String[] args) throws Exception {
            for (long i = 0; i < 50_000_000L; i++) {
                sum += work(i);
            }
            System.out.println("ready " + sum);
            System.out.flush();
            System.in.read();
        }
    }

    @TempDir
    Path dir;

    @Test
    void aMethodARunningJvmRanMillionsOfTimesIsReadFromItsCodeCacheAtTheTopTier() throws Exception {
        Path console = dir.resolve("console.log");
        Process child = new ProcessBuilder(ChildJvm.command(Hot.class.getName())).redirectErrorStream(true)
                .redirectOutput(console.toFile()).start();
        try {
            assertTrue(ProcessTools.awaitOutput(child, console, Duration.ofSeconds(60),
                    out -> out.contains("ready") ? true : null) != null, "the child ran its loop");
            CompiledCode code = CompiledCode.of(child.pid());
            assertEquals(Set.of("org.ftlab.os.CompiledCodeTest$Hot.work(J)J"),
                    code.atTier(CompiledCode.TOP_TIER, m -> m.contains("Hot.work")), code.tiers().size() + " methods");
            // the whole list, as the JDK's own jcmd prints it (the idle child compiles little meanwhile)
            CompiledCode tool = CompiledCode.parse(ProcessTools.run(List.of(Path.of(
                    System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(child.pid()),
                    "Compiler.codelist"), null));
            assertTrue(code.tiers().size() >= 0.9 * tool.tiers().size(), code.tiers().size() + " methods read, "
                    + tool.tiers().size() + " listed by jcmd");
        } finally {
            child.getOutputStream().close();
            child.waitFor();
        }
        Jcmd.forget(child.pid());
    }
}
