package org.ftlab.os;

import java.io.IOException;

/**
 * How to undo one fault: here ({@link #run()}), and as shell commands the {@link Janitor} runs if this JVM is killed
 * first. Both are idempotent: undoing what is already undone (or a process that is gone) is not an error.
 */
public interface Undo {
    void run() throws IOException;

    String script();

    /** What undoes a fault here. */
    @FunctionalInterface
    interface Action {
        void run() throws IOException;
    }

    /** An undo that runs {@code action} here and {@code script} in the janitor. */
    static Undo of(String script, Action action) {
        return new Undo() {
            @Override
            public void run() throws IOException {
                action.run();
            }

            @Override
            public String script() {
                return script;
            }
        };
    }

    /** Nothing to undo (a crash, a forced collection). */
    Undo NOTHING = of(":", () -> { });
}
