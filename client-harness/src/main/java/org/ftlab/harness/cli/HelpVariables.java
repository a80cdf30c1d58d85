package org.ftlab.harness.cli;

import java.util.ListResourceBundle;
import java.util.stream.Collectors;
import org.ftlab.rm.api.FaultKind;

/**
 * The parts of the help texts that come from the code, not from an annotation: picocli fills
 * {@code ${bundle:<key>}} from here in every command (a subcommand inherits its parent's bundle).
 */
public final class HelpVariables extends ListResourceBundle {
    /** The kinds of fault that are stalls of known cause, in order: {@code gc, …}. */
    static final String STALL_KINDS = "stall-kinds";

    @Override
    protected Object[][] getContents() {
        return new Object[][] {
            {STALL_KINDS, FaultKind.all().stream().filter(k -> k.cause().isPresent()).map(FaultKind::wireName)
                    .collect(Collectors.joining(", "))}
        };
    }
}
