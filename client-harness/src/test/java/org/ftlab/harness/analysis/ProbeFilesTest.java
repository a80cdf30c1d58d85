package org.ftlab.harness.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's probe files in grid order. */
class ProbeFilesTest {

    @Test
    void filesComeInGridOrderNotInTheOrderOfTheirNames(@TempDir Path run) throws Exception {
        Path probes = Files.createDirectories(run.resolve("probes"));
        List<String> names = List.of("notes.csv", "c10-t00-rorig.csv", "c02-t20-rorig.csv", "c02-t00-r512.csv",
                "c02-t00-rorig-rep2.csv", "c02-t00-rorig-rep1.csv", "c02-t05-r512.csv", "summary.txt");
        for (String name : names) {
            Files.writeString(probes.resolve(name), "");
        }
        // clients, then think time, then reply size (the original reply first), then replicate; the rest last
        assertEquals(List.of("c02-t00-rorig-rep1.csv", "c02-t00-rorig-rep2.csv", "c02-t00-r512.csv",
                "c02-t05-r512.csv", "c02-t20-rorig.csv", "c10-t00-rorig.csv", "notes.csv"),
                ProbeFiles.inGridOrder(run).stream().map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void openLoopBlocksAreOrderedByTheirRate(@TempDir Path run) throws Exception {
        Path probes = Files.createDirectories(run.resolve("probes"));
        for (String name : List.of("c04-rate100-rorig.csv", "c04-rate12.5-rorig.csv", "c04-rate50-rorig.csv")) {
            Files.writeString(probes.resolve(name), "");
        }
        assertEquals(List.of("c04-rate12.5-rorig.csv", "c04-rate50-rorig.csv", "c04-rate100-rorig.csv"),
                ProbeFiles.inGridOrder(run).stream().map(p -> p.getFileName().toString()).toList());
    }
}
