package org.ftlab.harness.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.logging.LogManager;
import org.ftlab.harness.lab.Home;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** {@code ftlab}: the one entry point of the lab (started by {@code scripts/ftlab}). */
@Command(name = "ftlab", mixinStandardHelpOptions = true, version = "ftlab 0.1.0",
        description = "A replicated three-tier EJB auction service and the lab around it.",
        subcommands = {DemoCommand.class, GridCommand.class, AnalyzeCommand.class, CheckCommand.class,
            StatusCommand.class, BenchCommand.class, NewStrategyCommand.class, LabCommand.class})
public final class FtlabCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command; try 'ftlab demo'");
    }

    public static void main(String[] args) {
        configureLogging();
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line and returns its exit code: 0 done, 1 failed, 2 bad usage, 130 interrupted. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new FtlabCommand());
        GridCommand.addWorkloadOptions(cli.getSubcommands().get("grid"));
        cli.setOut(out);
        cli.setErr(err);
        // Bad input is one line on stderr and a non-zero exit, never a stack trace.
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("ftlab: " + OneLineError.of(e));
            return 1;
        });
        cli.setParameterExceptionHandler((e, args2) -> {
            CommandLine cmd = e.getCommandLine();
            cmd.getErr().println("ftlab: " + e.getMessage() + " (see 'ftlab " + cmd.getCommandName()
                    + " --help')");
            return 2;
        });
        return cli.execute(args);
    }

    private static void configureLogging() {
        if (System.getProperty("java.util.logging.config.file") != null) {
            return; // the user chose a configuration
        }
        try (InputStream in = FtlabCommand.class.getResourceAsStream("/ftlab-logging.properties")) {
            if (in != null) {
                LogManager.getLogManager().readConfiguration(in);
            }
        } catch (IOException e) {
            // Logging stays at the JDK defaults: noisier, not wrong.
        }
    }

    static Path home() {
        return Home.path();
    }

    private static final DateTimeFormatter RUN_NAME = DateTimeFormatter
            .ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** {@code out} if given, else {@code runs/<prefix><UTC timestamp>} in the project: a command's directory, absolute. */
    static Path runDir(Path out, String prefix) {
        return (out != null ? out : home().resolve("runs").resolve(prefix + RUN_NAME.format(Instant.now())))
                .toAbsolutePath();
    }
}
