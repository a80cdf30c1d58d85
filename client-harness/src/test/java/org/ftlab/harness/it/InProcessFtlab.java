package org.ftlab.harness.it;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.ftlab.harness.cli.FtlabCommand;

/** The ftlab command run in the test's JVM, as a user runs it: its exit code and what it printed. */
final class InProcessFtlab {
    private InProcessFtlab() {
    }

    record Result(int code, String out, String err) {
    }

    /** Runs {@code ftlab args...}; its output is echoed to the test's own for the report. */
    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = FtlabCommand.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        System.out.println(out);
        System.err.println(err);
        return new Result(code, out.toString(), err.toString());
    }
}
