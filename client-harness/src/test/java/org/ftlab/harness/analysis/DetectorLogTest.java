package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The detector's false suspicions: raw suspicions of live replicas that no failure of theirs came near. */
class DetectorLogTest {
    @TempDir
    Path run;

    @Test
    void aSuspicionNearAFailureOfTheSameReplicaBelongsToItAndOneFarFromAnyIsFalse() throws Exception {
        Files.createDirectories(run.resolve("fd"));
        Files.writeString(run.resolve("fd/detector.log"), String.join("\n",
                "1000000000 ready coordinator=fd port=1 H=20ms T=40ms",
                "1010000000 suspicion replica=r3 pid=7 process alive; left to verification", // false: r3 never failed
                "1020000000 suspicion replica=r1 pid=5 process alive; left to verification", // false: 11.9 s early
                "1031886878 suspicion replica=r1 pid=5 process alive; left to verification", // the hang's
                "1031938972 failure replica=r1 pid=5 kind=hang detected_epoch_us=1031938972 (verified)",
                "1032036200 suspicion replica=r1 pid=5 process alive; left to verification", // after it, still its
                "1033000000 suspicion replica=r2 pid=6 process alive; left to verification", // false: r2 is another
                ""));
        assertEquals(3, DetectorLog.clearedSuspicions(run));
    }

    @Test
    void aRunWithoutADetectorLogHasNoFigure() throws Exception {
        assertNull(DetectorLog.clearedSuspicions(run));
    }
}
