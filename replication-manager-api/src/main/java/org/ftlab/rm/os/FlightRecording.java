package org.ftlab.os;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.text.ParseException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * JDK Flight Recorder in the lab's JVMs, with ftlab's settings ({@code ftlab.jfc}: GC pauses, safepoints,
 * compilations and waits of a millisecond or more, no stack traces). A child JVM records from its start into a
 * repository on disk ({@link #jvmOptions}); the harness and the manager record themselves ({@link #startHere}). A
 * recording is cut into a file of the run directory with {@link #dump(long, Path, long)} (a child) or {@link #dump(Path)} (this JVM);
 * a child that was killed leaves its chunks, which {@link #collect} writes into one.
 */
public final class FlightRecording implements AutoCloseable {
    /** The recording's name in every JVM (what {@code jcmd PID JFR.dump name=ftlab} names). */
    public static final String NAME = "ftlab";
    /** The most a JVM keeps on disk; older chunks are dropped first. */
    public static final String MAX_SIZE = "256m";
    private static final String SETTINGS = "ftlab.jfc";

    private final Recording recording;

    private FlightRecording(Recording recording) {
        this.recording = recording;
    }

    /** ftlab's settings, written once into {@code dir} for child JVMs; returns the file. */
    public static Path settingsFile(Path dir) throws IOException {
        Path file = dir.resolve(SETTINGS);
        if (!Files.isRegularFile(file)) {
            Files.createDirectories(dir);
            AtomicFiles.write(file, new String(settings().readAllBytes(), StandardCharsets.UTF_8));
        }
        return file;
    }

    /**
     * The options that make a child JVM record from its first instruction with {@code settings}, its chunks kept in
     * {@code repository} (a directory that survives the JVM: a killed one leaves what it had written there).
     *
     * @throws IllegalArgumentException if a path holds a comma (which JVM options cannot carry)
     */
    public static List<String> jvmOptions(Path settings, Path repository) {
        for (Path p : List.of(settings, repository)) {
            if (!canHoldRepository(p)) {
                throw new IllegalArgumentException("cannot record events with a comma in the path " + p
                        + ": use a run directory without one, or --observe off");
            }
        }
        return List.of(repositoryOption(repository),
                "-XX:StartFlightRecording=name=" + NAME + ",settings=" + settings.toAbsolutePath()
                        + ",disk=true,maxsize=" + MAX_SIZE);
    }

    /** Whether {@code path} can be passed to a JVM in a Flight Recorder option (JVM options cannot carry a comma). */
    public static boolean canHoldRepository(Path path) {
        return !path.toString().contains(",");
    }

    /**
     * The option that puts a child JVM's Flight Recorder repository in {@code repository}, recording or not: where a
     * recording started later (by {@link #start(long, Path)} or {@link InlinedCode#follow}) writes its chunks, for
     * another JVM to read. On its own it starts nothing (and costs a JVM's start a few ms).
     *
     * @throws IllegalArgumentException if the path holds a comma (which JVM options cannot carry)
     */
    public static String repositoryOption(Path repository) {
        if (!canHoldRepository(repository)) {
            throw new IllegalArgumentException("cannot record events with a comma in the path " + repository
                    + ": use a run directory without one");
        }
        return "-XX:FlightRecorderOptions=repository=" + repository.toAbsolutePath();
    }

    /**
     * Writes what JVM {@code pid} of this machine recorded since {@code sinceEpochUs} (whole chunks: a little more)
     * to {@code file}, atomically: the file appears whole or not at all.
     *
     * @throws IOException if the JVM is gone, records nothing, or could not write (its message says why)
     */
    public static void dump(long pid, Path file, long sinceEpochUs) throws IOException {
        Path tmp = tmp(file);
        // the JVM reads a begin time as its local time, which is this machine's
        String begin = DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(LocalDateTime.ofInstant(
                Instant.ofEpochSecond(sinceEpochUs / 1_000_000), ZoneId.systemDefault()));
        Jcmd.run(pid, "JFR.dump name=" + NAME + " filename=" + tmp.toAbsolutePath() + " begin=" + begin);
        if (!Files.isRegularFile(tmp)) {
            throw new IOException("JVM " + pid + " wrote no recording");
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Writes what a JVM that is gone left in its repository since {@code sinceEpochUs} (the chunks it had flushed and
     * last wrote to since then, whole: a little more; a JVM flushes its events about once a second, so a killed one
     * loses its last second at most) to {@code file}, atomically, oldest chunk first (a file of several chunks is one
     * recording to a reader). A JVM that exited in order removed its chunks.
     *
     * @return whether there was anything to write
     * @throws IOException if the repository or the file cannot be read or written
     */
    public static boolean collect(Path repository, Path file, long sinceEpochUs) throws IOException {
        List<Path> chunks;
        if (!Files.isDirectory(repository)) {
            return false;
        }
        try (var walk = Files.walk(repository)) {
            chunks = walk.filter(p -> p.getFileName().toString().endsWith(".jfr") && Files.isRegularFile(p)
                            && lastWrittenEpochUs(p) >= sinceEpochUs)
                    .sorted(Comparator.comparing((Path p) -> p.getFileName().toString())).toList();
        }
        if (chunks.isEmpty()) {
            return false;
        }
        Path tmp = tmp(file);
        try (OutputStream out = Files.newOutputStream(tmp)) {
            for (Path c : chunks) {
                Files.copy(c, out);
            }
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return true;
    }

    private static long lastWrittenEpochUs(Path p) {
        try {
            return Files.getLastModifiedTime(p).to(TimeUnit.MICROSECONDS);
        } catch (IOException e) {
            return Long.MAX_VALUE; // being written: keep it
        }
    }

    /**
     * Stops and discards the recording of JVM {@code pid} of this machine (what it had not dumped is lost); the JVM
     * then records nothing until {@link #start(long, Path)}.
     *
     * @throws IOException if the JVM is gone or has no such recording (the message says why)
     */
    public static void stop(long pid) throws IOException {
        Jcmd.run(pid, "JFR.stop name=" + NAME);
    }

    /**
     * Starts the recording of JVM {@code pid} of this machine again, with {@code settings} (from
     * {@link #settingsFile}), into the repository it was started with.
     *
     * @throws IOException if the JVM is gone or cannot record (the message says why)
     */
    public static void start(long pid, Path settings) throws IOException {
        Jcmd.run(pid, "JFR.start name=" + NAME + " settings=" + settings.toAbsolutePath() + " disk=true maxsize="
                + MAX_SIZE);
    }

    /** Starts recording this JVM with ftlab's settings, on disk, up to {@link #MAX_SIZE}. */
    public static FlightRecording startHere() throws IOException {
        Configuration c;
        try (Reader r = new InputStreamReader(settings(), StandardCharsets.UTF_8)) {
            c = Configuration.create(r);
        } catch (ParseException e) {
            throw new IOException("ftlab.jfc: " + e.getMessage(), e);
        }
        Recording r = new Recording(c);
        r.setName(NAME);
        r.setToDisk(true);
        r.setMaxSize(256L << 20);
        r.start();
        return new FlightRecording(r);
    }

    /** Writes what this JVM recorded (since it started recording, up to {@link #MAX_SIZE}) to {@code file}, atomically. */
    public void dump(Path file) throws IOException {
        Path tmp = tmp(file);
        try (Recording copy = recording.copy(false)) {
            copy.dump(tmp);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public void close() {
        recording.close();
    }

    private static InputStream settings() throws IOException {
        InputStream in = FlightRecording.class.getResourceAsStream(SETTINGS);
        if (in == null) {
            throw new IOException(SETTINGS + " is missing from the class path");
        }
        return in;
    }

    private static Path tmp(Path file) {
        return file.resolveSibling(file.getFileName() + ".tmp");
    }
}
