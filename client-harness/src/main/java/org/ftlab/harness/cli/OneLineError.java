package org.ftlab.harness.cli;

/** Turns a failure into one line for the user: the deepest message that says something, without class names. */
final class OneLineError {
    private OneLineError() {
    }

    static String of(Throwable e) {
        String best = null;
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                best = t.getMessage();
                break;
            }
        }
        if (best == null) {
            best = e.getClass().getSimpleName();
        }
        return best.lines().findFirst().orElse(best);
    }
}
