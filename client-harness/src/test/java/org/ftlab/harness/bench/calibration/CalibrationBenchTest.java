package org.ftlab.harness.bench.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What ftlab's client adds is read from the rounds both clients ran, door by door, as medians. */
class CalibrationBenchTest {
    private static CalibrationBench.Row row(String platform, String client, int round, double p50, double p99,
            double max) {
        return new CalibrationBench.Row(platform, client, client.equals("vegeta"), round,
                new Latencies(1000, 0, p50, p99, max, p50, -1, -1), -1);
    }

    @Test
    void theAddedLatencyIsTheMedianOfSameRoundDifferencesAndRatios() {
        List<CalibrationBench.Row> rows = List.of(
                row("rest", "vegeta", 1, 600, 2400, 9000), row("rest", "ftlab", 1, 1200, 8400, 20000),
                row("rest", "vegeta", 2, 700, 3600, 5000), row("rest", "ftlab", 2, 1400, 7200, 15000),
                row("rest", "vegeta", 3, 650, 3000, 7000), row("rest", "ftlab", 3, 1300, 15000, 12000));
        List<CalibrationBench.Added> added = CalibrationBench.added(rows);
        assertEquals(1, added.size());
        CalibrationBench.Added a = added.get(0);
        assertEquals("vegeta", a.reference());
        assertTrue(a.external());
        assertEquals(3, a.rounds());
        assertEquals(650, a.p50Us(), 1e-9, "differences 600, 700, 650");
        assertEquals(6000, a.p99Us(), 1e-9, "differences 6000, 3600, 12000");
        assertEquals(10000, a.maxUs(), 1e-9, "differences 11000, 10000, 5000");
        assertEquals(2.0, a.p50Ratio(), 1e-9);
        assertEquals(3.5, a.p99Ratio(), 1e-9, "ratios 3.5, 2.0, 5.0");
    }

    @Test
    void eachDoorIsHeldToItsOwnClientsAndARoundOnlyOneRanIsLeftOut() {
        List<CalibrationBench.Row> rows = List.of(
                row("ejb", "bare-ejb", 1, 500, 1000, 3000), row("ejb", "ftlab", 1, 600, 1500, 4000),
                row("ejb", "bare-ejb", 2, 500, 1000, 3000),
                row("rest", "jdk-http", 1, 1700, 5000, 9000), row("rest", "ftlab", 1, 1800, 5500, 9000));
        List<CalibrationBench.Added> added = CalibrationBench.added(rows);
        assertEquals(2, added.size());
        CalibrationBench.Added ejb = added.stream().filter(a -> a.platform().equals("ejb")).findFirst().orElseThrow();
        assertEquals("bare-ejb", ejb.reference());
        assertEquals(1, ejb.rounds(), "round 2 has no ftlab block");
        assertEquals(100, ejb.p50Us(), 1e-9);
        assertEquals(500, ejb.p99Us(), 1e-9);
        CalibrationBench.Added rest = added.stream().filter(a -> a.platform().equals("rest")).findFirst()
                .orElseThrow();
        assertEquals("jdk-http", rest.reference());
        assertEquals(100, rest.p50Us(), 1e-9);
    }

    @Test
    void vegetasJsonReportIsReadInMicroseconds() throws IOException {
        Latencies l = Vegeta.fromReport("""
                {"latencies":{"total":3292767208,"mean":658553,"50th":598386,"90th":803012,"95th":912009,\
                "99th":2430122,"max":5202244,"min":350123},"bytes_in":{"total":1,"mean":1},"requests":5000,\
                "rate":200.03,"throughput":199.9,"success":0.999,"status_codes":{"200":4995,"500":5},"errors":[]}
                """);
        assertEquals(4995, l.requests());
        assertEquals(5, l.errors());
        assertEquals(598.386, l.p50Us(), 1e-9);
        assertEquals(2430.122, l.p99Us(), 1e-9);
        assertEquals(5202.244, l.maxUs(), 1e-9);
        assertEquals(658.553, l.meanUs(), 1e-9);
    }

    @Test
    void whatIsNotAVegetaReportIsAnErrorNamingIt() {
        IOException e = assertThrows(IOException.class, () -> Vegeta.fromReport("{\"oops\":1}"));
        assertTrue(e.getMessage().startsWith("not a vegeta JSON report"), e.getMessage());
    }
}
