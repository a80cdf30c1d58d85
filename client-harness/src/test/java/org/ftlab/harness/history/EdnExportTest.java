package org.ftlab.harness.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import us.bpsm.edn.Keyword;
import us.bpsm.edn.parser.Parseable;
import us.bpsm.edn.parser.Parser;
import us.bpsm.edn.parser.Parsers;

/** The history exported for Jepsen's tools, read back by an EDN reader nobody here wrote (edn-java). */
class EdnExportTest {
    @TempDir
    Path run;

    @Test
    void everyEventReadsBackAsAMapOfJepsensKeys() throws Exception {
        History h = History.of(run);
        History.Client c = h.client("g1-01");
        c.invoke(new Invocation("offer", "7", Map.of("bidder", "g1_01", "amount_cents", 1100)), 3)
                .ok(Map.of("accepted", true, "leader", "g1_01", "price_cents", 1100, "count", 1), "r1", null);
        h.faultStarted("f1", "crash", "r1");
        c.invoke(new Invocation("offer", "7", Map.of("bidder", "g1_01", "amount_cents", 1200)), 4)
                .failed(new IllegalStateException("a \"quoted\" reason\nover two lines"));
        h.flush();
        Path file = run.resolve("history.edn");
        EdnExport.write(HistoryFiles.readRun(run), file);

        Parser parser = Parsers.newParser(Parsers.defaultConfiguration());
        Parseable in = Parsers.newParseable(Files.readString(file));
        List<Map<?, ?>> events = new ArrayList<>();
        for (Object o = parser.nextValue(in); o != Parser.END_OF_INPUT; o = parser.nextValue(in)) {
            events.add((Map<?, ?>) o);
        }
        assertEquals(5, events.size());
        Map<?, ?> invoke = events.get(0);
        assertEquals(Keyword.newKeyword("invoke"), invoke.get(Keyword.newKeyword("type")));
        assertEquals(Keyword.newKeyword("offer"), invoke.get(Keyword.newKeyword("f")));
        assertEquals(0L, invoke.get(Keyword.newKeyword("process")));
        assertEquals(1100L, ((Map<?, ?>) invoke.get(Keyword.newKeyword("value")))
                .get(Keyword.newKeyword("amount-cents")));
        assertEquals("7", invoke.get(Keyword.newKeyword("key")));
        assertEquals(Keyword.newKeyword("ok"), events.get(1).get(Keyword.newKeyword("type")));
        Map<?, ?> reply = (Map<?, ?>) events.get(1).get(Keyword.newKeyword("value"));
        assertEquals(true, reply.get(Keyword.newKeyword("accepted")));
        assertEquals(1100L, reply.get(Keyword.newKeyword("amount-cents")), "a completion carries its arguments");
        assertEquals(Keyword.newKeyword("nemesis"), events.get(2).get(Keyword.newKeyword("process")));
        Map<?, ?> info = events.get(4);
        assertEquals(Keyword.newKeyword("info"), info.get(Keyword.newKeyword("type")));
        assertEquals("a \"quoted\" reason\nover two lines",
                ((Map<?, ?>) info.get(Keyword.newKeyword("value"))).get(Keyword.newKeyword("message")));
    }
}
