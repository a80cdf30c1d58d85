package org.ftlab.harness.cli;

import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code ftlab}: the one entry point of the lab (started by {@code scripts/ftlab}). */
@Command(name = "ftlab", mixinStandardHelpOptions = true, version = "ftlab 0.1.0",
        description = "A replicated three-tier EJB auction service and the lab around it.",
        subcommands = {DemoCommand.class})
public final class FtlabCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command; try 'ftlab demo'");
    }

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new FtlabCommand());
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
        System.exit(cli.execute(args));
    }

    /** The project root: set by scripts/ftlab; the working directory otherwise. */
    static Path home() {
        String home = System.getProperty("ftlab.home");
        return Path.of(home == null ? "." : home).toAbsolutePath().normalize();
    }
}
