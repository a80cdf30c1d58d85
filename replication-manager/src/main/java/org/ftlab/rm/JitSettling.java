package org.ftlab.rm;

import java.io.IOException;
import org.ftlab.rm.os.CompiledCode;
import org.ftlab.rm.os.Jcmd;
import org.ftlab.rm.replica.RequestPath;

/**
 * Whether a local replica's JIT has caught up with its warm-up: the request path's methods compiled at C2 grew by
 * fewer than {@value #MIN_NEW_METHODS} (or {@value #GROWTH} of them) since the last reading, and nothing waits in its
 * C2 compile queue. Read from its code cache and compile queue ({@code jcmd}); a replica that cannot be read counts
 * as settled (the warm-up does not go on blind). Policy for {@link ReplicaWarmer#warmUp(org.ftlab.rm.replica.Replica,
 * ReplicaWarmer.Settling)}.
 */
final class JitSettling implements ReplicaWarmer.Settling {
    static final int MIN_NEW_METHODS = 5;
    static final double GROWTH = 0.02;

    private final long pid;
    private int last = -1;

    private JitSettling(long pid) {
        this.pid = pid;
    }

    static JitSettling of(long pid) {
        return new JitSettling(pid);
    }

    @Override
    public boolean settled() {
        int now;
        boolean queueEmpty;
        try {
            now = CompiledCode.of(pid).atTier(CompiledCode.TOP_TIER, RequestPath::contains).size();
            queueEmpty = c2QueueEmpty(Jcmd.run(pid, "Compiler.queue"));
        } catch (IOException e) {
            return true;
        }
        boolean settled = settled(last, now, queueEmpty);
        last = now;
        return settled;
    }

    /** The rule: a first reading never settles; then little growth and an empty C2 queue do. */
    static boolean settled(int before, int now, boolean c2QueueEmpty) {
        return before >= 0 && c2QueueEmpty && now - before < Math.max(MIN_NEW_METHODS, before * GROWTH);
    }

    /** Whether {@code Compiler.queue}'s output shows no C2 compilation waiting. */
    static boolean c2QueueEmpty(String queue) {
        int i = queue.indexOf("C2 compile queue:");
        if (i < 0) {
            return true; // no C2 in this JVM
        }
        String rest = queue.substring(i + "C2 compile queue:".length()).strip();
        return rest.isEmpty() || rest.startsWith("Empty");
    }
}
