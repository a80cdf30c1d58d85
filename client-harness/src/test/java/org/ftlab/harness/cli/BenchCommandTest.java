package org.ftlab.harness.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.ftlab.harness.bench.suites.BenchSuites;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine;

/**
 * {@code ftlab bench}'s suites on the command line: the registry's default list, its one-line refusal of a suite it
 * does not have, its help, and each suite's own options. Nothing here starts a lab.
 */
class BenchCommandTest {
    private static final CommandSpec BENCH = new CommandLine(new FtlabCommand()).getSubcommands().get("bench")
            .getCommandSpec();

    @Test
    void theDefaultListIsServiceAgreementFailoverAnalysisAndJmh() {
        assertEquals(List.of("service", "agreement", "failover", "analysis", "jmh"),
                BenchSuites.create().defaultNames());
        assertEquals("service,agreement,failover,analysis,jmh", BENCH.findOption("--suites").defaultValue());
    }

    @Test
    void anUnknownSuiteIsOneLineOnStderrThatNamesEveryChoiceAndNothingRuns() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = FtlabCommand.execute(new String[] {"bench", "--suites", "service,bogus"},
                new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(1, code);
        assertEquals("ftlab: --suites: unknown suite 'bogus'; choose from service, agreement, failover, analysis, jmh, "
                + "attribution, calibration, tart, check" + System.lineSeparator(), err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void theHelpIsTheHeaderThenAParagraphPerDescribedSuiteInTheRegistrysOrder() {
        List<String> paragraphs = List.of(BENCH.usageMessage().description());
        assertEquals(BenchCommand.HEADER, paragraphs.get(0));
        assertEquals(List.of("service:", "failover:", "analysis:", "attribution (not in the default list):",
                "calibration (not in the default list):", "tart (not in the default list):",
                "check (not in the default list):"),
                paragraphs.subList(1, paragraphs.size()).stream().map(p -> p.substring(0, p.indexOf(':') + 1))
                        .toList());
    }

    @Test
    void eachSuitesOwnOptionsAreTheCommandsWithTheirDefaults() {
        Map<String, String> defaults = Map.of("--crashes", "4", "--failover-clients", "1,10", "--requests-per-method",
                "5000", "--jmh-iteration-ms", "1000", "--stalls", "10", "--cost-pairs", "5", "--tart-rounds", "2",
                "--tart-intervals", "100,500,2000", "--repeat", "5", "--warmup", "200");
        defaults.forEach((name, value) -> assertEquals(value, BENCH.findOption(name).defaultValue(), name));
        assertNull(BENCH.findOption("--failover-strategies").defaultValue());
    }
}
