package org.ftlab.rm.fault;

import java.io.IOException;

/**
 * How to undo one fault: here ({@link #run()}), and as shell commands the {@link Janitor} runs if this JVM is killed
 * first. Both are idempotent: undoing what is already undone (or a process that is gone) is not an error.
 */
public interface Undo {
    void run() throws IOException;

    String script();

    /** Nothing to undo (a crash). */
    Undo NOTHING = new Undo() {
        @Override
        public void run() {
        }

        @Override
        public String script() {
            return ":";
        }
    };

    /** This, then {@code next}. */
    default Undo then(Undo next) {
        Undo first = this;
        return new Undo() {
            @Override
            public void run() throws IOException {
                try {
                    first.run();
                } finally {
                    next.run();
                }
            }

            @Override
            public String script() {
                return first.script() + "\n" + next.script();
            }
        };
    }
}
