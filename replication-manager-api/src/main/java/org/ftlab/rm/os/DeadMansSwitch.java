package org.ftlab.os;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A tiny shell loop that outlives a JVM killed with SIGKILL (no shutdown hook runs then) and acts for it: while the
 * owner process lives it sleeps, half a second at a time; once the owner is gone it runs its action. The loop's
 * arguments are {@code $1} = the owner's pid, {@code $2}, … = {@code args}.
 */
public final class DeadMansSwitch {
    private DeadMansSwitch() {
    }

    /**
     * Starts {@code sh -c LOOP name owner args…}.
     *
     * @param name the loop's {@code $0}, as {@code ps} shows it
     * @param meanwhile shell run at every turn while the owner lives (say, {@code exit 0} once there is nothing left to
     *     watch); empty for none
     * @param then shell run once the owner is gone
     */
    public static Process start(String name, long ownerPid, String meanwhile, String then, String... args)
            throws IOException {
        String loop = "while kill -0 \"$1\" 2>/dev/null; do " + (meanwhile.isEmpty() ? "" : meanwhile + "; ")
                + "sleep 0.5; done; " + then + "; exit 0";
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", loop, name, Long.toString(ownerPid)));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }
}
