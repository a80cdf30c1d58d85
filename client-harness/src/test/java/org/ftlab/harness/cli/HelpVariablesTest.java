package org.ftlab.harness.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The help texts' parts that come from the code. */
class HelpVariablesTest {
    @Test
    void theBenchsHelpNamesTheStallKindsInTheirOrder() {
        StringWriter out = new StringWriter();
        assertEquals(0, FtlabCommand.execute(new String[] {"bench", "--help"}, new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true)));
        assertTrue(out.toString().replaceAll("\\s+", " ").contains("stalls of known cause (gc, cpu-hog, db-lock) "
                + "injected --stalls times each"), out.toString());
    }
}
