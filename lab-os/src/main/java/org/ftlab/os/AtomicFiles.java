package org.ftlab.os;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Properties;

/**
 * Files that are whole or absent: written to {@code <name>.<random>.tmp} beside them and renamed over the old one, so
 * a reader (or a run that is killed halfway) never sees half a file, and writers of the same file at once (replicas
 * launched together writing one settings file) each rename a whole file of their own.
 */
public final class AtomicFiles {
    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicFiles() {
    }

    /** Replaces {@code file} with {@code text} (UTF-8) in one rename. */
    public static void write(Path file, String text) throws IOException {
        Path tmp = tmp(file);
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** As {@link #write}, readable by the owner only (mode 600 from its creation): passwords, tokens. */
    public static void writePrivate(Path file, String text) throws IOException {
        Path tmp = tmp(file);
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /** {@code properties} in a private file (as {@link #writePrivate(Path, String)}), with a comment line. */
    public static void writePrivate(Path file, Properties properties, String comment) throws IOException {
        StringWriter text = new StringWriter();
        properties.store(text, comment);
        writePrivate(file, text.toString());
    }

    private static Path tmp(Path file) {
        return file.resolveSibling(file.getFileName() + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".tmp");
    }
}
