package org.ftlab.harness.cli;

import java.nio.file.Path;

/** The project root: set by scripts/ftlab ({@code -Dftlab.home}); the working directory otherwise. */
public final class Home {
    private Home() {
    }

    public static Path path() {
        String home = System.getProperty("ftlab.home");
        return Path.of(home == null ? "." : home).toAbsolutePath().normalize();
    }
}
