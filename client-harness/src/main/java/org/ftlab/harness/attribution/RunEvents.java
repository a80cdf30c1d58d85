package org.ftlab.harness.attribution;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToLongFunction;
import org.ftlab.harness.probe.Manifest;

/**
 * The stalls a run's processes recorded, read from the event files its manifest lists (one per process and segment,
 * docs/probe-format.md), by process. A file that cannot be read, and a process whose recording was never written, are
 * {@link #problems}, one line each: the rest is analysed.
 *
 * @param recorded whether the run recorded events at all ({@code --observe on})
 * @param byProcess each process's stalls, by start
 * @param problems what is missing, one line each
 * @param load each JVM's load samples (its CPU use and the machine's, every 100 ms), by time
 * @param host the host's CPU samples (every 10 ms, from the manager's file), by start
 * @param usage each sampled process's CPU, page faults and resident set (every 50 ms, from the manager's file), by
 *        start
 */
public record RunEvents(boolean recorded, Map<String, List<Stall>> byProcess, List<String> problems,
        Map<String, List<JfrStalls.LoadSample>> load, List<JfrStalls.HostSample> host,
        Map<String, List<JfrStalls.ProcessUse>> usage) {
    /** A run that recorded no events. */
    public static final RunEvents NONE = new RunEvents(false, Map.of(), List.of(), Map.of());

    /** Events without load samples (hand-built ones). */
    public RunEvents(boolean recorded, Map<String, List<Stall>> byProcess, List<String> problems) {
        this(recorded, byProcess, problems, Map.of());
    }

    /** Events without the manager's host and process samples (hand-built ones). */
    public RunEvents(boolean recorded, Map<String, List<Stall>> byProcess, List<String> problems,
            Map<String, List<JfrStalls.LoadSample>> load) {
        this(recorded, byProcess, problems, load, List.of(), Map.of());
    }

    public static RunEvents load(Path runDir) throws IOException {
        if (!Manifest.existsIn(runDir)) {
            return NONE;
        }
        Manifest m = Manifest.readAny(runDir);
        Map<String, List<Stall>> byProcess = new TreeMap<>();
        Map<String, List<JfrStalls.LoadSample>> load = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        List<JfrStalls.HostSample> host = new ArrayList<>();
        Map<String, List<JfrStalls.ProcessUse>> usage = new TreeMap<>();
        boolean recorded = false;
        List<Map.Entry<String, Path>> files = new ArrayList<>();
        for (Manifest.Segment s : m.segments()) {
            if (s.events() == null) {
                continue;
            }
            recorded = true;
            if (s.eventsFailed() != null) {
                s.eventsFailed().forEach(line -> problems.add("no events from " + line));
            }
            for (Map.Entry<String, String> e : new TreeMap<>(s.events()).entrySet()) {
                Path file = runDir.resolve(e.getValue());
                if (!Files.isRegularFile(file)) {
                    problems.add(e.getValue() + " is missing: " + e.getKey() + "'s events are left out");
                } else {
                    files.add(Map.entry(e.getKey(), file));
                }
            }
        }
        // the files are read side by side (parsing is most of the time), and merged in the manifest's order
        List<Read> read = files.parallelStream().map(f -> {
            try {
                // a file's stalls are its process's, and the manager's file has the database's lock waits
                return new Read(JfrStalls.readAll(f.getValue(), f.getKey()), null);
            } catch (IOException ex) {
                return new Read(null, ex.getMessage() + ": " + f.getKey() + "'s events in it are left out");
            }
        }).toList();
        for (int i = 0; i < files.size(); i++) {
            JfrStalls.Recording recording = read.get(i).recording();
            if (recording == null) {
                problems.add(read.get(i).problem());
                continue;
            }
            for (Stall stall : recording.stalls()) {
                byProcess.computeIfAbsent(stall.process(), p -> new ArrayList<>()).add(stall);
            }
            load.computeIfAbsent(files.get(i).getKey(), p -> new ArrayList<>()).addAll(recording.load());
            host.addAll(recording.host());
            recording.processes().forEach(u -> usage.computeIfAbsent(u.process(), p -> new ArrayList<>()).add(u));
        }
        // a segment's dump is whole chunks, so two segments' files may hold the same events: each counted once
        byProcess.replaceAll((p, l) -> {
            List<Stall> distinct = new ArrayList<>(new LinkedHashSet<>(l));
            distinct.sort(Comparator.comparingLong(Stall::startUs));
            return distinct;
        });
        load.replaceAll((p, l) -> once(l, JfrStalls.LoadSample::atUs, JfrStalls.LoadSample::atUs));
        List<JfrStalls.HostSample> hostOnce = once(host, JfrStalls.HostSample::startUs, JfrStalls.HostSample::endUs);
        Map<String, List<JfrStalls.ProcessUse>> usageOnce = new TreeMap<>();
        usage.forEach((p, l) -> usageOnce.put(p, once(l, JfrStalls.ProcessUse::startUs, JfrStalls.ProcessUse::endUs)));
        return new RunEvents(recorded, byProcess, List.copyOf(problems), load, hostOnce, usageOnce);
    }

    /** One file read: its recording, or (null recording) the line saying why it could not be read. */
    private record Read(JfrStalls.Recording recording, String problem) {
    }

    /**
     * Samples by start, each once: the same sample in two files (same start and end) is kept once. (A sampler
     * begins each interval a few µs before it ends the one before: neighbours overlap that much, and are kept.)
     */
    static <T> List<T> once(List<T> samples, ToLongFunction<T> start,
            ToLongFunction<T> end) {
        List<T> sorted = new ArrayList<>(samples);
        sorted.sort(Comparator.comparingLong(start));
        List<T> out = new ArrayList<>(sorted.size());
        T last = null;
        for (T s : sorted) {
            if (last == null || start.applyAsLong(s) != start.applyAsLong(last)
                    || end.applyAsLong(s) != end.applyAsLong(last)) {
                out.add(s);
                last = s;
            }
        }
        return out;
    }

    /** A process's stalls by start (empty when it recorded none). */
    public List<Stall> of(String process) {
        return byProcess.getOrDefault(process, List.of());
    }
}
