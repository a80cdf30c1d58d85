package org.ftlab.harness.probe;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ftlab.os.AtomicFiles;

/** A run's small JSON records ({@code stateful.json}, {@code database.json}): snake_case, written whole, atomically. */
final class RunRecordFiles {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    private RunRecordFiles() {
    }

    static void write(Path runDir, String file, Object record) throws IOException {
        AtomicFiles.write(runDir.resolve(file), JSON.writeValueAsString(record));
    }

    /** The record {@code file} of {@code runDir}, or null when the run has none; {@code what} names it in an error. */
    static <T> T read(Path runDir, String file, Class<T> type, String what) throws IOException {
        Path f = runDir.resolve(file);
        if (!Files.exists(f)) {
            return null;
        }
        try {
            return JSON.readValue(f.toFile(), type);
        } catch (IOException e) {
            throw new IOException(f + " is not " + what + " of ftlab's (" + e.getMessage()
                    + "): the run directory is damaged", e);
        }
    }
}
