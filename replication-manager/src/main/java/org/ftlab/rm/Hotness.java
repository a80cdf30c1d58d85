package org.ftlab.rm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.ftlab.os.CompiledCode;
import org.ftlab.os.InlinedCode;
import org.ftlab.os.SamplerThread;
import org.ftlab.rm.api.ReplicaStatus;
import org.ftlab.rm.replica.RequestPath;

/**
 * Whether each replica runs the request path at full speed ("hot"; docs/architecture.md): the share of the request
 * path's methods that the primary has compiled at the top tier which this replica runs at the top tier too, compiled
 * on their own or inlined into a method compiled there (a method that ran often enough in the primary to be compiled
 * on its own may run in a backup only inside its compiled callers, at their speed).
 * The top tier is the highest any primary of the lab has compiled at: C2 ({@value CompiledCode#TOP_TIER}), or the tier
 * the replicas' JVMs are capped at ({@code -XX:TieredStopAtLevel}). The <em>reference</em> is every request-path
 * method any primary of the lab has had at the top tier (it grows as primaries serve); a replica is hot while its
 * share is at least {@value #HOT_SHARE}. Read from each local replica's code cache every {@value #PERIOD_MILLIS} ms
 * ({@link CompiledCode}) and what its compilers inlined ({@link InlinedCode}: in JVMs that compile at C2, C1 inlining
 * only trivial methods; recorded from its start, followed once it has booted); a replica on another machine, or one
 * not read yet, has no share. Mechanism for the manager's status and failure records; what makes a replica hot is
 * elsewhere.
 */
final class Hotness implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(Hotness.class.getName());

    /** The least share of the reference at the top tier of a hot replica. */
    static final double HOT_SHARE = ReplicaStatus.HOT_SHARE;
    static final long PERIOD_MILLIS = 10_000;
    /** A replica's last reading: its share of the reference, and since when it has been hot (0: not hot). */
    record Reading(double share, long hotSinceEpochMillis) {
        boolean hot() {
            return hotSinceEpochMillis > 0;
        }
    }

    /**
     * The replicas to read: the primary's name (null: none), each local replica's pid, and where each records its
     * inlining (a replica without one, such as one still booting or one capped below C2: its inlining is not
     * followed).
     */
    record Replicas(String primary, Map<String, Long> pids, Map<String, Path> repositories) {
        Replicas(String primary, Map<String, Long> pids) {
            this(primary, pids, Map.of());
        }
    }

    /** Reads a JVM's code cache. */
    interface CodeReader {
        CompiledCode read(long pid) throws IOException;
    }

    /** What a JVM inlines, followed until closed. */
    interface Followed extends CompiledCode.Inlining, AutoCloseable {
        /** Forgets the compilations no longer in {@code code}. */
        void forget(CompiledCode code);

        @Override
        void close();
    }

    /** Follows JVM {@code pid}'s inlining, recorded into {@code repository}. */
    interface InliningReader {
        Followed follow(long pid, Path repository) throws IOException;
    }

    /**
     * Follows a JVM with {@link InlinedCode}: its recording of inlining from its start ({@link InlinedCode#jvmOptions};
     * only such JVMs are given: {@link org.ftlab.rm.replica.Replica#recordsInlining}).
     */
    static InliningReader jfr() {
        return (pid, repository) -> {
            InlinedCode code = InlinedCode.follow(pid, repository, RequestPath::contains);
            return new Followed() {
                @Override
                public Set<String> inlinedInto(long compileId) {
                    return code.inlinedInto(compileId);
                }

                @Override
                public void forget(CompiledCode current) {
                    code.forgetGone(current.highestCompileId(), current.compiles()::containsKey);
                }

                @Override
                public void close() {
                    code.close();
                }
            };
        };
    }

    private final CodeReader reader;
    private final InliningReader inliningReader;
    /** The replicas whose inlining is followed, by name, with the pid followed. */
    private final Map<String, Map.Entry<Long, Followed>> followed = new ConcurrentHashMap<>();
    private final LongSupplier clockMillis;
    private final Set<String> reference = new HashSet<>();
    /** The highest tier a primary of the lab has compiled at: 4 (C2), or what the replicas' JVMs are capped at. */
    private int topTier = -1;
    private final Map<String, Reading> readings = new ConcurrentHashMap<>();
    private volatile SamplerThread thread;

    Hotness(CodeReader reader, InliningReader inliningReader, LongSupplier clockMillis) {
        this.reader = reader;
        this.inliningReader = inliningReader;
        this.clockMillis = clockMillis;
    }

    /**
     * Reads the lab's replicas every {@value #PERIOD_MILLIS} ms from now on, until closed, following their inlining.
     */
    static Hotness start(Supplier<Replicas> replicas) {
        Hotness h = new Hotness(CompiledCode::of, jfr(), System::currentTimeMillis);
        h.thread = SamplerThread.of("hot-code", () -> {
            while (!h.thread.stopped()) {
                h.sample(replicas.get());
                try {
                    Thread.sleep(PERIOD_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        h.thread.start(); // started once assigned: the loop reads it
        return h;
    }

    /** One round: the primary first (its top-tier request-path methods join the reference), then every replica. */
    void sample(Replicas replicas) {
        Long primaryPid = replicas.primary() == null ? null : replicas.pids().get(replicas.primary());
        CompiledCode primaryCode = null;
        if (primaryPid != null) {
            try {
                primaryCode = reader.read(primaryPid);
                int highest = primaryCode.highestTier();
                synchronized (reference) {
                    if (highest > topTier) { // the methods of a lower tier are no longer the top
                        topTier = highest;
                        reference.clear();
                    }
                    reference.addAll(primaryCode.atTier(topTier, RequestPath::contains));
                }
            } catch (IOException e) {
                complainOnce(replicas.primary(), e); // or gone meanwhile: the next round reads the next primary
            }
        }
        CompiledCode readPrimary = primaryCode;
        Set<String> ref;
        int tier;
        synchronized (reference) {
            ref = Set.copyOf(reference);
            tier = topTier;
        }
        long now = clockMillis.getAsLong();
        readings.keySet().retainAll(replicas.pids().keySet());
        followed.entrySet().removeIf(e -> {
            boolean gone = !e.getValue().getKey().equals(replicas.pids().get(e.getKey()));
            if (gone) {
                e.getValue().getValue().close();
            }
            return gone;
        });
        replicas.pids().forEach((name, pid) -> {
            double share;
            try {
                CompiledCode code = name.equals(replicas.primary()) && readPrimary != null ? readPrimary
                        : reader.read(pid);
                // C1 inlines only trivial methods: in JVMs capped below C2 what is compiled on its own is the count
                Followed inlined = tier == CompiledCode.TOP_TIER
                        ? follow(name, pid, replicas.repositories().get(name)) : NOT_FOLLOWED;
                inlined.forget(code);
                share = code.shareAtTier(ref, tier, inlined);
            } catch (IOException e) {
                complainOnce(name, e);
                return;
            }
            if (Double.isNaN(share)) {
                return; // no primary has compiled anything of the request path yet: nothing to compare with
            }
            Reading before = readings.get(name);
            long since = share < HOT_SHARE ? 0 : before != null && before.hot() ? before.hotSinceEpochMillis() : now;
            readings.put(name, new Reading(share, since));
        });
    }

    /**
     * What replica {@code name} (JVM {@code pid}) inlines, followed from the first call with a repository on
     * ({@link #NOT_FOLLOWED} until then, and for good if following fails: tried once, said once).
     */
    private Followed follow(String name, long pid, Path repository) {
        Map.Entry<Long, Followed> f = followed.get(name);
        if (f != null) {
            return f.getValue();
        }
        if (repository == null) {
            return NOT_FOLLOWED;
        }
        Followed started = NOT_FOLLOWED;
        try {
            started = inliningReader.follow(pid, repository);
        } catch (IOException e) {
            LOG.warning("cannot follow what " + name + " inlines (its share of the "
                    + "request path counts only the methods compiled on their own): " + e.getMessage());
        }
        followed.put(name, Map.entry(pid, started));
        return started;
    }

    /** A replica whose inlining is not followed: nothing known inlined. */
    private static final Followed NOT_FOLLOWED = new Followed() {
        @Override
        public Set<String> inlinedInto(long compileId) {
            return Set.of();
        }

        @Override
        public void forget(CompiledCode code) {
        }

        @Override
        public void close() {
        }
    };

    /** The replicas whose code could not be read, said once each on the manager's console. */
    private final Set<String> complained = ConcurrentHashMap.newKeySet();

    private void complainOnce(String replica, IOException e) {
        if (complained.add(replica)) {
            LOG.warning("cannot read " + replica + "'s compiled code (its share of the "
                    + "request path at the top tier is left unknown): " + e.getMessage());
        }
    }

    /** The last reading of {@code replica}, or null. */
    Reading of(String replica) {
        return readings.get(replica);
    }

    /** Whether the reference holds a method whose name starts with {@code prefix} (a package or class). */
    boolean referenceHas(String prefix) {
        synchronized (reference) {
            return reference.stream().anyMatch(m -> m.startsWith(prefix));
        }
    }

    /** How many methods the reference holds now. */
    int referenceSize() {
        synchronized (reference) {
            return reference.size();
        }
    }

    @Override
    public void close() {
        SamplerThread t = thread;
        if (t != null) {
            t.close();
        }
        followed.values().forEach(f -> f.getValue().close());
        followed.clear();
    }
}
