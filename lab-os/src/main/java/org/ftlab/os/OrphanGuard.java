package org.ftlab.os;

import java.io.IOException;

/**
 * A dead man's switch for a child server process: a tiny shell loop that SIGKILLs the child as soon as this JVM is
 * gone. Shutdown hooks cover Ctrl-C and normal exits; this covers {@code kill -9} of the JVM, after which a WildFly or
 * mariadbd child would otherwise be reparented and run on with its ports and files.
 */
public final class OrphanGuard implements AutoCloseable {
    /** A guard that guards nothing (when the child's pid could not be learned). */
    public static final OrphanGuard NONE = new OrphanGuard(null);


    private final Process watcher;

    private OrphanGuard(Process watcher) {
        this.watcher = watcher;
    }

    /** The process whose death the guards of {@link #watch(long)} wait for: this JVM unless set. */
    private static volatile long labOwner = ProcessHandle.current().pid();

    /**
     * From now on the processes this JVM starts belong to the lab, whose owner is process {@code ownerPid}, and not
     * to this JVM: they outlive it and die with the owner. A lab kept by several managers, any of which may die while
     * the lab goes on, sets it to the process that started the managers.
     */
    public static void belongToLabOf(long ownerPid) {
        labOwner = ownerPid;
    }

    /** Starts watching: {@code childPid} dies with this JVM, or with the lab's owner ({@link #belongToLabOf}). */
    public static OrphanGuard watch(long childPid) {
        return watch(labOwner, childPid);
    }

    /**
     * {@code childPid} dies with process {@code ownerPid}: a process that belongs to a lab rather than to the JVM
     * that started it (a lab of several managers, any of which may die while the lab goes on).
     */
    public static OrphanGuard watch(long ownerPid, long childPid) {
        try {
            return new OrphanGuard(DeadMansSwitch.start("orphan-guard", ownerPid,
                    "kill -0 \"$2\" 2>/dev/null || exit 0", "kill -KILL \"$2\" 2>/dev/null", Long.toString(childPid)));
        } catch (IOException e) {
            return NONE;
        }
    }

    /** The guard's own process (for tests). */
    Process process() {
        return watcher;
    }

    /** Whether the guard is still watching (its loop runs until the child or this JVM is gone). */
    boolean watching() {
        return watcher != null && watcher.isAlive();
    }

    /** Stops watching (the child was stopped properly). */
    @Override
    public void close() {
        if (watcher != null) {
            watcher.destroy();
        }
    }
}
