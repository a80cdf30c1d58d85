package org.ftlab.os;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongPredicate;
import java.util.function.Predicate;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedObject;

/**
 * What another JVM of this machine's compilers inlined into each compilation, followed as it compiles: a method
 * inlined into a compiled caller runs at its caller's tier, though the code cache lists only the caller
 * ({@link CompiledCode}). Read from JDK Flight Recorder's {@code jdk.CompilerInlining} events (one per inlining
 * decision: the compilation's id, the callee, whether it was inlined) of a recording named {@value #RECORDING} that
 * the JVM runs from its start ({@link #jvmOptions}, {@link #follow}), streamed from the JVM's disk repository.
 *
 * <p>Recorded from the start, never started later: as the first recording of a running JVM it would make all of its
 * compiled code not entrant (the Flight Recorder transforms JDK classes to record their events, and HotSpot then
 * deoptimizes every compiled method; measured on JDK 17: a warmed replica lost 2,352 of its 2,564 C2 methods), and in
 * any JVM it would miss what was inlined before it started, so that methods running at the top tier inside the
 * compilations of a warm-up could not be counted.
 *
 * <p>The JVM must have been started with its repository where this JVM can read it
 * ({@link FlightRecording#repositoryOption}). The recording keeps at most {@value #MAX_SIZE} on disk.
 */
public final class InlinedCode implements AutoCloseable {
    /** The recording's name in the followed JVM. */
    public static final String RECORDING = "ftlab-jit";
    static final String MAX_SIZE = "64m";
    private static final String SETTINGS = """
            <?xml version="1.0" encoding="UTF-8"?>
            <configuration version="2.0" label="ftlab inlining">
              <event name="jdk.CompilerInlining"><setting name="enabled">true</setting></event>
            </configuration>
            """;

    private final Map<Long, Set<String>> inlined = new ConcurrentHashMap<>();
    private final Predicate<String> keep;
    private final EventStream stream;

    private InlinedCode(Path chunks, Predicate<String> keep) throws IOException {
        this.keep = keep;
        this.stream = EventStream.openRepository(chunks);
        stream.setStartTime(Instant.EPOCH); // from the JVM's start: a repository's stream begins at its next event
        stream.onEvent("jdk.CompilerInlining", this::onInlining);
    }

    /**
     * The options that make a child JVM record its inlining decisions from its start, as {@link #follow} reads them
     * (with {@link FlightRecording#repositoryOption}); the settings file is written into {@code settingsDir} once.
     *
     * @throws IllegalArgumentException if a path holds a comma (which JVM options cannot carry)
     */
    public static List<String> jvmOptions(Path settingsDir) throws IOException {
        Path settings = settingsDir.resolve("ftlab-jit.jfc");
        if (!FlightRecording.canHoldRepository(settings)) {
            throw new IllegalArgumentException("cannot record inlining with a comma in the path " + settings);
        }
        if (!Files.isRegularFile(settings)) {
            Files.createDirectories(settingsDir);
            AtomicFiles.write(settings, SETTINGS);
        }
        return List.of("-XX:StartFlightRecording=name=" + RECORDING + ",settings=" + settings.toAbsolutePath()
                + ",disk=true,maxsize=" + MAX_SIZE);
    }

    /**
     * Follows the inlining decisions that JVM {@code pid}, started with {@link #jvmOptions} and its repository in
     * {@code repository}, has recorded since its start and goes on recording, keeping the callees {@code keep}
     * accepts. It changes nothing in the JVM.
     *
     * @throws IOException if the JVM records nothing into {@code repository}
     */
    public static InlinedCode follow(long pid, Path repository, Predicate<String> keep) throws IOException {
        InlinedCode code = new InlinedCode(chunksOf(pid, repository), keep);
        code.stream.startAsync();
        return code;
    }

    /** The directory a JVM writes its chunks into: {@code <repository>/<start time>_<pid>}. */
    private static Path chunksOf(long pid, Path repository) throws IOException {
        if (!Files.isDirectory(repository)) {
            throw new IOException("JVM " + pid + " has no repository in " + repository);
        }
        try (var dirs = Files.list(repository)) {
            return dirs.filter(d -> Files.isDirectory(d) && d.getFileName().toString().endsWith("_" + pid))
                    .max(Comparator.comparing(d -> d.getFileName().toString()))
                    .orElseThrow(() -> new IOException("JVM " + pid + " records nothing into " + repository));
        }
    }

    private void onInlining(RecordedEvent e) {
        if (!e.getBoolean("succeeded")) {
            return;
        }
        RecordedObject callee = e.getValue("callee");
        String method = CompiledCode.canonical(callee.getString("type").replace('/', '.') + '.'
                + callee.getString("name") + callee.getString("descriptor"));
        if (keep.test(method)) {
            inlined.computeIfAbsent(e.getLong("compileId"), id -> ConcurrentHashMap.newKeySet()).add(method);
        }
    }

    /** The kept methods inlined into compilation {@code compileId} (empty: none, or its events are no longer on disk). */
    public Set<String> inlinedInto(long compileId) {
        Set<String> s = inlined.get(compileId);
        return s == null ? Set.of() : Set.copyOf(s);
    }

    /**
     * Forgets the compilations below {@code belowId} that {@code live} does not accept (their code is gone from the
     * code cache), so that what is kept follows the code cache, not the JVM's history.
     */
    public void forgetGone(long belowId, LongPredicate live) {
        inlined.keySet().removeIf(id -> id < belowId && !live.test(id));
    }

    /** How many compilations have kept methods inlined. */
    public int compilations() {
        return inlined.size();
    }

    /** Stops following (the JVM's recording goes on until it exits, bounded by {@value #MAX_SIZE}). */
    @Override
    public void close() {
        stream.close();
    }
}
