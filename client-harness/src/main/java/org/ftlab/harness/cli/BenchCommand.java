package org.ftlab.harness.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import org.ftlab.harness.bench.BenchReport;
import org.ftlab.harness.bench.Machine;
import org.ftlab.harness.bench.Plan;
import org.ftlab.harness.bench.Rounds;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.SuiteRun;
import org.ftlab.harness.bench.Suites;
import org.ftlab.harness.bench.suites.BenchSuites;
import org.ftlab.harness.lab.ManagedLab;
import picocli.CommandLine.Command;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ftlab bench}: benchmarks, not tests. Each figure is the median and spread of repeated runs in this process,
 * written to {@code DIR/bench.json} and printed as a table. The suites are {@link BenchSuites}'; the command checks
 * the command line, attaches or boots the lab the chosen ones need, runs them in order and writes what they report.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, description = BenchCommand.HEADER,
        modelTransformer = BenchCommand.WithSuites.class)
public final class BenchCommand implements Callable<Integer> {
    /** The first paragraph of {@code --help}; a paragraph per suite follows. */
    static final String HEADER = "Benchmarks ftlab (not a test) and writes DIR/bench.json and DIR/bench.txt: each "
            + "figure with its median and spread over repeated runs, each comparison a ratio within one run.";

    /** The suites, each with its own options, which {@link WithSuites} adds to the command line. */
    final Suites suites = BenchSuites.create();

    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", description = "Where to write bench.json and the synthetic run "
            + "(default: runs/bench-<time>).")
    Path out;

    /** Its default, the suites' default list, is set by {@link WithSuites}. */
    @Option(names = "--suites", paramLabel = "LIST", split = ",",
            description = "Which suites to run (default ${DEFAULT-VALUE}).")
    List<String> names;

    @Mixin
    Rounds rounds;

    @Mixin
    BenchLab lab;

    @Override
    public Integer call() throws Exception {
        List<Suite> chosen = suites.chosen(names);
        rounds.check();
        suites.all().forEach(Suite::checkOptions);
        boolean needsLab = chosen.stream().anyMatch(Suite::needsLab);
        int spares = chosen.stream().mapToInt(Suite::spares).max().orElse(0);
        ManagedLab running = lab.attach(needsLab, spares);
        Path dir = FtlabCommand.runDir(out, "bench-");
        Plan plan = new Plan(dir, lab.wildflyCluster(running), lab::observe);
        chosen.forEach(s -> s.checkPlan(plan));
        Files.createDirectories(dir);

        PrintWriter pw = spec.commandLine().getOut();
        BenchReport report = new BenchReport(dir);
        Machine machine = Machine.here();
        report.put("machine", machine);
        report.put("when", Instant.now().toString());
        report.table().append(machine.line());
        if (needsLab) {
            try (ManagedLab l = running != null ? running : lab.start(dir, spares, pw)) {
                String measured = BenchLab.measured(l);
                report.put("lab", measured);
                report.table().append("lab: ").append(measured).append(System.lineSeparator());
                run(chosen, true, new SuiteRun(l, dir, pw, rounds, report));
            }
        }
        run(chosen, false, new SuiteRun(null, dir, pw, rounds, report));
        Path written = report.write();
        pw.println();
        pw.print(report.table());
        pw.println("bench.json: " + written);
        pw.flush();
        return 0;
    }

    /** Runs, in order, the chosen suites that run on the lab ({@code onLab}) or those that do not. */
    private static void run(List<Suite> chosen, boolean onLab, SuiteRun run) throws Exception {
        for (Suite s : chosen) {
            if (s.needsLab() == onLab) {
                s.run(run);
            }
        }
    }

    /**
     * Shapes the command line from the suites, once, before it is parsed: each suite's options, the default of
     * {@code --suites}, and a paragraph of {@code --help} per suite.
     */
    public static final class WithSuites implements IModelTransformer {
        @Override
        public CommandSpec transform(CommandSpec command) {
            Suites suites = ((BenchCommand) command.userObject()).suites;
            for (Suite s : suites.all()) {
                if (s.options() != null) {
                    command.addMixin(s.name(), CommandSpec.forAnnotatedObject(s.options()));
                }
            }
            OptionSpec names = command.findOption("--suites");
            command.remove(names);
            command.addOption(names.toBuilder().defaultValue(String.join(",", suites.defaultNames())).build());
            command.usageMessage().description(suites.help(HEADER).toArray(String[]::new));
            return command;
        }
    }
}
