package org.ftlab.harness.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.ftlab.auction.api.UnknownAuctionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run's history as the grid records it and as the checker reads it back. */
class HistoryFilesTest {
    @TempDir
    Path run;

    @Test
    void eventsAreWrittenInOrderOnePartPerFlushAndReadBackAsRecorded() throws Exception {
        History h = History.of(run);
        History.Client c = h.client("g1-01");
        History.Operation post = c.invoke(new Invocation("post", null, Map.of("title", "t")), 3);
        post.ok(Map.of("auction", 41), "r1", "41");
        h.flush();
        History.Operation view = c.invoke(new Invocation("view", "41", null), 4);
        h.faultStarted("f1", "crash", "r1");
        view.failed(new IllegalStateException("no replica answered"));
        History.Operation next = c.invoke(new Invocation("view", "41", null), 5);
        next.failed(new UnknownAuctionException("no auction 41"));
        h.flush();
        List<HistoryEvent> events = HistoryFiles.readRun(run);
        assertEquals(7, events.size());
        assertEquals(2, Files.list(run.resolve(History.DIR)).count());
        HistoryEvent ok = events.get(1);
        assertEquals(HistoryEvent.Type.OK, ok.type());
        assertEquals("41", ok.key());
        assertEquals(41, ok.value().get("auction").asInt());
        assertEquals("r1", ok.replica());
        assertTrue(events.get(3).isNemesis());
        HistoryEvent info = events.get(4);
        assertEquals(HistoryEvent.Type.INFO, info.type());
        assertEquals("f1", info.fault(), "the request met the fault that began while it was in flight");
        HistoryEvent fail = events.get(6);
        assertEquals(HistoryEvent.Type.FAIL, fail.type(), "the service refused it: it took no effect");
        assertEquals(null, fail.fault(), "no fault began while it was in flight");
        assertEquals(events.get(2).process() + 1, events.get(5).process(),
                "after an info the client continues as a new process");
    }

    @Test
    void aResumedRunContinuesItsHistory() throws Exception {
        History first = History.of(run);
        first.client("a").invoke(new Invocation("view", "1", null), 0).ok(null, "r1", null);
        first.flush();
        History second = History.of(run);
        second.client("b").invoke(new Invocation("view", "1", null), 0).ok(null, "r1", null);
        second.flush();
        List<HistoryEvent> events = HistoryFiles.readRun(run);
        assertEquals(List.of(0L, 1L, 2L, 3L), events.stream().map(HistoryEvent::index).toList());
        assertEquals(1, events.get(2).process(), "a process of the resumed run is a new one");
        assertTrue(events.get(2).timeNanos() > events.get(1).timeNanos());
    }

    @Test
    void aRunWithoutAHistoryIsOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HistoryFiles.readRun(run));
        assertTrue(e.getMessage().contains("has no history"), e.getMessage());
    }

    @Test
    void aTruncatedPartIsOneLineNamingTheFileAndLine() throws IOException {
        write("{\"index\":0,\"type\":\"invoke\",\"f\":\"view\",\"process\":0,\"time\":5}\n{\"index\":1,\"ty");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HistoryFiles.readRun(run));
        assertTrue(e.getMessage().contains("part-000000.jsonl line 2") && e.getMessage().contains("truncated"),
                e.getMessage());
    }

    @Test
    void anEventWithoutItsFieldsOrOfAnUnknownTypeIsOneLine() throws IOException {
        write("{\"index\":0,\"type\":\"invoke\",\"f\":\"view\",\"time\":5}\n");
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> HistoryFiles.readRun(run));
        assertTrue(missing.getMessage().contains("line 1: an event needs"), missing.getMessage());
        write("{\"index\":0,\"type\":\"done\",\"f\":\"view\",\"process\":0,\"time\":5}\n");
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class,
                () -> HistoryFiles.readRun(run));
        assertTrue(type.getMessage().contains("type must be invoke, ok, fail or info"), type.getMessage());
    }

    @Test
    void eventsOutOfOrderAreRefused() throws IOException {
        write("{\"index\":1,\"type\":\"invoke\",\"f\":\"view\",\"process\":0,\"time\":5}\n"
                + "{\"index\":0,\"type\":\"ok\",\"f\":\"view\",\"process\":0,\"time\":6}\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HistoryFiles.readRun(run));
        assertTrue(e.getMessage().contains("out of order"), e.getMessage());
    }

    private void write(String text) throws IOException {
        Files.createDirectories(run.resolve(History.DIR));
        Files.writeString(run.resolve(History.DIR).resolve("part-000000.jsonl"), text);
    }
}
