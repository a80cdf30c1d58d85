package org.ftlab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JanitorTest {
    @TempDir
    Path dir;

    @Test
    void whenItsOwnerIsKilledTheUndoOfEveryFaultStillInEffectRuns() throws Exception {
        Process owner = new ProcessBuilder("sleep", "60").start();
        Path undone = dir.resolve("undone");
        Path alreadyUndone = dir.resolve("already-undone");
        Janitor j = Janitor.start(dir.resolve("undo.sh"), owner.pid());
        j.register("f1", "touch '" + undone + "'");
        j.register("f2", "touch '" + alreadyUndone + "'");
        j.done("f2");
        owner.destroyForcibly().waitFor();
        assertEquals(0, j.watcher().waitFor(), "the watcher ran the script and ended");
        assertTrue(Files.exists(undone), "the fault still in effect was undone");
        assertFalse(Files.exists(alreadyUndone), "a fault undone by its owner is not undone twice");
    }

    @Test
    void closedAfterEverythingWasUndoneItRunsNothing() throws Exception {
        Process owner = new ProcessBuilder("sleep", "60").start();
        Path marker = dir.resolve("ran");
        Janitor j = Janitor.start(dir.resolve("undo.sh"), owner.pid());
        j.register("f1", "touch '" + marker + "'");
        j.done("f1");
        j.close();
        assertEquals(128 + 15, j.watcher().waitFor(), "closing ends the watcher (SIGTERM) while its owner lives, so "
                + "it can never run the script");
        owner.destroyForcibly().waitFor();
        assertFalse(Files.exists(marker));
    }
}
