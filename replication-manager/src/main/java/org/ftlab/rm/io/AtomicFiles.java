package org.ftlab.rm.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Files that are whole or absent: written to {@code <name>.tmp} beside them and renamed over the old one, so a
 * reader (or a run that is killed halfway) never sees half a file.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    /** Replaces {@code file} with {@code text} (UTF-8) in one rename. */
    public static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
