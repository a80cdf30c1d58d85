package org.ftlab.rm;

import java.io.IOException;
import org.ftlab.os.CompiledCode;
import org.ftlab.rm.replica.RequestPath;

/**
 * Whether a local replica's JIT has caught up with its warm-up: the request path's methods compiled at C2 grew by
 * fewer than {@value #MIN_NEW_METHODS} (or {@value #GROWTH} of them) since the last reading. (Its C2 compile queue is
 * not asked to be empty: under the warm-up's own concurrent rounds it seldom is, recompilations coming and going.)
 * Read from its code cache ({@code jcmd}); a replica that cannot be read counts as settled (the warm-up does not go
 * on blind). Policy for {@link ReplicaWarmer#warmUp(org.ftlab.rm.replica.Replica, ReplicaWarmer.Settling)}.
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
        try {
            now = CompiledCode.of(pid).atTier(CompiledCode.TOP_TIER, RequestPath::contains).size();
        } catch (IOException e) {
            return true;
        }
        boolean settled = settled(last, now);
        last = now;
        return settled;
    }

    /** The rule: a first reading never settles; then little growth does. */
    static boolean settled(int before, int now) {
        return before >= 0 && now - before < Math.max(MIN_NEW_METHODS, before * GROWTH);
    }
}
