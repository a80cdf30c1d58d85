package org.ftlab.rm.replica;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which replica JVMs record their inlining: those that compile at C2, as their options say. */
class ReplicaLauncherTest {
    @Test
    void aJvmWithoutOptionsOrWithOtherOptionsCompilesAtC2() {
        assertTrue(ReplicaLauncher.compilesAtC2(List.of()));
        assertTrue(ReplicaLauncher.compilesAtC2(List.of("-Xlog:gc", "-XX:TieredStopAtLevel=4")));
    }

    @Test
    void aJvmCappedAtACOneTierOrInterpretedOnlyDoesNotCompileAtC2() {
        assertFalse(ReplicaLauncher.compilesAtC2(List.of("-XX:TieredStopAtLevel=1")));
        assertFalse(ReplicaLauncher.compilesAtC2(List.of("-Xint")));
    }

    @Test
    void theLastTierCapGivenCounts() {
        assertTrue(ReplicaLauncher.compilesAtC2(List.of("-XX:TieredStopAtLevel=1", "-XX:TieredStopAtLevel=4")));
        assertFalse(ReplicaLauncher.compilesAtC2(List.of("-XX:TieredStopAtLevel=4", "-XX:TieredStopAtLevel=3")));
    }
}
