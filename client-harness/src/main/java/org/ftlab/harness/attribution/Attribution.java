package org.ftlab.harness.attribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.ftlab.harness.probe.FaultRecord;
import org.ftlab.harness.probe.ProbeFile;

/**
 * Why each slow request was slow (docs/analysis.md, "Why a request was slow"). For every block, its top 1% of
 * requests by latency (at least one: the block's maximum) are joined to the stalls that overlapped them: those of the
 * clients' JVM ({@code harness}, which stalls every request at once) and of the replica that served the request (every
 * replica, for a request sent to more than one: the one it met first is not recorded), and the row-lock waits of the
 * database connection its transaction ran on ({@link Stall.Cause#ROW_LOCK_WAIT} of {@code db}; of every connection,
 * for a request sent to more than one replica: only the answering transaction's connection is recorded); and to the
 * waits for a CPU its own threads measured (the bean's, {@code cpu-runqueue(r1)}, the database's for its transaction,
 * {@code cpu-runqueue(db)}, and the client's, {@code cpu-runqueue(client)}; where no single one accounts for enough,
 * their sum along the request's path, e.g. {@code cpu-runqueue(r1+db)}: its threads run one after another). A
 * request's <em>excess</em> is its latency minus its block's median. The stalls of one cause in one process (a label
 * such as {@code gc-pause(r1)}) account for the time they overlap the request, counted once where they overlap each
 * other; the label that accounts for the most is the request's cause if it accounts for at least
 * {@value #MIN_SHARE_OF_EXCESS} of the excess, and the request is {@value #UNEXPLAINED} otherwise. The span where its
 * time went is given beside, never as a cause. Two rules then say whose CPU a wait for one was: a wait during another
 * JVM's stop-the-world collection is credited to that collection (its threads held the cores), up to their overlap,
 * and names it if that is most of the waits; and where processes outside the lab (or the hypervisor) used more of the
 * CPUs over the request's interval than any process of the lab ({@link CpuUse}), the wait is
 * {@value #CPU_OUTSIDE}{@code (host)} ({@value #CPU_STEAL}{@code (host)}).
 */
public final class Attribution {
    /** The share of a block's requests, slowest first, that are explained: the top 1%. */
    public static final double TOP_FRACTION = 0.01;
    /** The least share of a request's excess over its block's median that a cause must account for. */
    public static final double MIN_SHARE_OF_EXCESS = 0.5;
    /** The verdict for a slow request no recorded stall accounts for. */
    public static final String UNEXPLAINED = "unexplained";
    /** The clients' JVM's name among the processes. */
    public static final String HARNESS = "harness";
    /** The client's thread, in the label of its waits for a CPU: {@code cpu-runqueue(client)}. */
    public static final String CLIENT = "client";
    /** The database server, in the label of its connection thread's waits for a CPU: {@code cpu-runqueue(db)}. */
    public static final String DATABASE = "db";
    /** The host, in the label of a cause outside every process of the lab: {@code cpu-outside(host)}. */
    public static final String HOST = "host";
    /** The cause of a request whose thread waited for a CPU (Linux scheduler statistics, measured per request). */
    public static final String RUN_QUEUE = "cpu-runqueue";
    /** The cause of a request whose threads waited for CPUs that processes outside the lab used the most of. */
    public static final String CPU_OUTSIDE = "cpu-outside";
    /** The cause of a request whose threads waited for CPUs that the hypervisor gave away the most of. */
    public static final String CPU_STEAL = "cpu-steal";
    /**
     * The cause, and the span, of a request that waited on the replica between its I/O thread reading it and the bean
     * starting: the worker pool's queue and the dispatch (the HTTP door, which says when a request arrived).
     */
    public static final String POOL_WAIT = "pool-wait";
    /**
     * The cause of a request whose way in, from the client's send to the replica's I/O thread having read it, took
     * most of its excess: its bytes waiting in the replica's socket for the I/O thread (the client's sending and the
     * loopback are microseconds on one host). Measured where the HTTP door says when a request arrived.
     */
    public static final String SOCKET_QUEUE = "socket-queue";
    /** The span from the client's send to the replica (to its I/O thread where the door says when, else the bean). */
    static final String REQUEST_LEG = "request-leg";
    /** The least CPU use outside the lab (or stolen) that can be a cause: below it, sampling noise. */
    static final double MIN_FOREIGN_CPUS = 0.25;
    /** The share of the host's CPUs used outside the lab (or stolen) that is a cause even if a lab process used more. */
    static final double MIN_FOREIGN_SHARE = 0.25;
    /** A request's connection when it may have run transactions on several: every lock wait may have held it up. */
    private static final long ANY_CONNECTION = Long.MIN_VALUE;
    /** Evidence listed per request, longest overlap first. */
    static final int MAX_EVIDENCE = 5;

    /** A stall that overlapped a slow request: which, and for how long it overlapped. */
    public record Evidence(String process, String cause, String detail, long startEpochUs, long durationUs,
            long overlapUs) {
    }

    /**
     * One slow request and its cause.
     *
     * @param block its block; {@code client} and {@code seq} name it
     * @param latencyUs its latency; {@code excessUs}: over its block's median
     * @param blockMax whether it is its block's slowest
     * @param cause a label such as {@code gc-pause(r1)}, or {@value #UNEXPLAINED}
     * @param explainedUs how much of its latency the cause's stalls overlapped (for {@value #UNEXPLAINED}: the best
     *        label's, too little)
     * @param share {@code explainedUs} ÷ latency
     * @param span where its time went, from the probes ({@code database}, {@code request-leg}, …)
     * @param evidence the cause's stalls that overlapped it (the best label's, for {@value #UNEXPLAINED})
     * @param spans its latency by span, µs, in the path's order (seed 000's per-outlier breakdown, its Figure 7)
     */
    public record Outlier(String block, String client, long seq, String method, long sendEpochUs, long latencyUs,
            long excessUs, boolean blockMax, String cause, long explainedUs, double share, String span,
            List<Evidence> evidence, Map<String, Long> spans) {
        public boolean explained() {
            return !UNEXPLAINED.equals(cause);
        }
    }

    /**
     * A block's slow requests counted by cause ({@value #UNEXPLAINED} included), and what the lab's processes did
     * while it ran ({@link BlockLoad}).
     */
    public record BlockCauses(String block, int outliers, Map<String, Integer> causes, Map<String, Double> load,
            long fromUs, long toUs) {
        public int unexplained() {
            return causes.getOrDefault(UNEXPLAINED, 0);
        }
    }

    /** One bar of a {@link Timeline}: a slow request (lane {@value #SLOW_LANE}) or a process's stall. */
    public record Bar(String lane, String kind, long startUs, long endUs, String detail) {
    }

    /**
     * The block of the run's slowest request, from its first intended send to its last receive: its slow requests
     * (labelled by cause) and every stall of 1 ms or more its processes recorded meanwhile, by lane.
     */
    public record Timeline(String block, long fromUs, long toUs, List<Bar> bars) {
    }

    /** The timeline's lane of slow requests. */
    public static final String SLOW_LANE = "slow requests";
    /** Stalls shorter than this are left off the timeline (they would be invisible). */
    static final long TIMELINE_MIN_STALL_US = 1_000;
    /** The most bars of a timeline (the longest stalls are kept). */
    static final int TIMELINE_MAX_BARS = 2_000;

    /**
     * The run's attribution: whether events were recorded, every slow request, the causes per block and for the
     * run, what was missing (a file that could not be read, a process that recorded nothing), and the stalls the run
     * injected on purpose set against what was named ({@link InjectedStalls}).
     */
    public record Result(boolean recorded, List<Outlier> outliers, List<BlockCauses> blocks,
            Map<String, Integer> causes, List<String> problems, List<InjectedStalls.Verdict> injected,
            Timeline timeline) {
        public static final Result NONE = new Result(false, List.of(), List.of(), Map.of(), List.of(), List.of(),
                null);

        /** The share of slow requests with a named cause (0 when there are none). */
        public double explainedShare() {
            return outliers.isEmpty() ? 0 : outliers.stream().filter(Outlier::explained).count()
                    / (double) outliers.size();
        }

        /**
         * The unexplained slow requests counted by the span their time went to ({@link Outlier#span}), most first
         * (ties by name): where to look for the causes not yet recorded.
         */
        public Map<String, Integer> unexplainedBySpan() {
            Map<String, Integer> counts = new TreeMap<>();
            outliers.stream().filter(o -> !o.explained()).forEach(o -> counts.merge(o.span(), 1, Integer::sum));
            Map<String, Integer> out = new LinkedHashMap<>();
            counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .forEach(e -> out.put(e.getKey(), e.getValue()));
            return out;
        }
    }

    private final RunEvents events;
    private final List<Outlier> outliers = new ArrayList<>();
    private final List<BlockCauses> blocks = new ArrayList<>();

    /** Per process: its stalls' starts (ascending, as {@link RunEvents#of}) and its longest stall, µs. */
    private final Map<String, long[]> starts = new HashMap<>();
    private final Map<String, Long> longest = new HashMap<>();

    public Attribution(RunEvents events) {
        this.events = events;
        events.byProcess().forEach((process, stalls) -> {
            starts.put(process, stalls.stream().mapToLong(Stall::startUs).toArray());
            longest.put(process, stalls.stream().mapToLong(Stall::durationUs).max().orElse(0));
        });
    }

    /**
     * The stalls of {@code process} that may overlap {@code [from, to]}, by start: those that began before {@code to}
     * and no earlier than its longest stall before {@code from} (a binary search, not a scan from the run's start).
     */
    private List<Stall> candidates(String process, long from, long to) {
        long[] at = starts.get(process);
        if (at == null) {
            return List.of();
        }
        int first = Sorted.firstAtLeast(at.length, k -> at[k], from - longest.get(process));
        int end = Sorted.firstAtLeast(at.length, k -> at[k], to);
        return events.of(process).subList(first, Math.max(first, end));
    }

    /** Explains one block's slow requests. */
    public void accept(ProbeFile pf) {
        if (!events.recorded()) {
            return;
        }
        int[] done = completed(pf);
        if (done.length == 0) {
            return;
        }
        long[] latencies = new long[done.length];
        for (int k = 0; k < done.length; k++) {
            latencies[k] = pf.latencyUs(done[k]);
        }
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        long median = sorted[(sorted.length - 1) / 2];
        int top = Math.max(1, (int) Math.ceil(done.length * TOP_FRACTION));
        Integer[] order = new Integer[done.length];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, Comparator.comparingLong((Integer k) -> latencies[k]).reversed());
        Map<String, Integer> causes = new TreeMap<>();
        for (int r = 0; r < top; r++) {
            int i = done[order[r]];
            Outlier o = explain(pf, i, median, r == 0);
            outliers.add(o);
            causes.merge(o.cause(), 1, Integer::sum);
        }
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        for (int i : done) {
            from = Math.min(from, pf.intendedUs[i]);
            to = Math.max(to, pf.recvUs[i]);
        }
        blocks.add(new BlockCauses(pf.block, top, causes, BlockLoad.of(events, from, to), from, to));
    }

    /** The run's attribution, with {@code faults} (its {@code faults.csv}) for the stalls it injected. */
    public Result finish(List<FaultRecord> faults) {
        if (!events.recorded()) {
            return Result.NONE;
        }
        Map<String, Integer> causes = new TreeMap<>();
        outliers.forEach(o -> causes.merge(o.cause(), 1, Integer::sum));
        return new Result(true, List.copyOf(outliers), List.copyOf(blocks), causes, events.problems(),
                InjectedStalls.judge(outliers, faults), timeline());
    }

    /** The timeline of the block of the run's slowest request; null without slow requests. */
    private Timeline timeline() {
        Outlier slowest = outliers.stream().max(Comparator.comparingLong(Outlier::latencyUs)).orElse(null);
        if (slowest == null) {
            return null;
        }
        BlockCauses b = blocks.stream().filter(x -> x.block().equals(slowest.block())).findFirst().orElseThrow();
        List<Bar> bars = new ArrayList<>();
        for (Outlier o : outliers) {
            if (o.block().equals(b.block())) {
                bars.add(new Bar(SLOW_LANE, o.cause(), o.sendEpochUs(), o.sendEpochUs() + o.latencyUs(),
                        o.client() + "#" + o.seq() + " " + o.method()));
            }
        }
        List<Stall> stalls = new ArrayList<>();
        events.byProcess().values().forEach(list -> list.stream().filter(s -> s.durationUs() >= TIMELINE_MIN_STALL_US
                && s.startUs() < b.toUs() && s.endUs() > b.fromUs()).forEach(stalls::add));
        stalls.sort(Comparator.comparingLong(Stall::durationUs).reversed());
        stalls.stream().limit(Math.max(0, TIMELINE_MAX_BARS - bars.size()))
                .forEach(s -> bars.add(new Bar(s.process(), s.cause().wireName(), s.startUs(), s.endUs(), s.detail())));
        return new Timeline(b.block(), b.fromUs(), b.toUs(), List.copyOf(bars));
    }

    private static int[] completed(ProbeFile pf) {
        int[] idx = new int[pf.size];
        int n = 0;
        for (int i = 0; i < pf.size; i++) {
            if (pf.completed(i)) {
                idx[n++] = i;
            }
        }
        return Arrays.copyOf(idx, n);
    }

    /** One slow request joined to the stalls that overlapped it. */
    Outlier explain(ProbeFile pf, int i, long medianUs, boolean blockMax) {
        long from = pf.intendedUs[i];
        long to = pf.recvUs[i];
        long latency = pf.latencyUs(i);
        long excess = Math.max(0, latency - medianUs);
        List<String> processes = new ArrayList<>(List.of(HARNESS));
        if (pf.sentTo[i] > 1) {
            events.byProcess().keySet().stream().filter(p -> p.matches("r\\d+")).forEach(processes::add);
        } else if (pf.replica[i] >= 0) {
            processes.add(pf.replicaNames.get(pf.replica[i]));
        }
        processes.add(DATABASE); // its lock waits, each of one connection: only the request's own
        // a request sent to more than one replica ran a transaction on each: only the answering one's connection is
        // recorded, so every connection's waits count (as every replica's stalls do)
        long connection = pf.sentTo[i] > 1 ? ANY_CONNECTION : pf.dbConnection[i];
        String best = null;
        long bestUs = 0;
        List<Stall> bestStalls = List.of();
        for (String process : processes) {
            Map<String, List<Stall>> byLabel = new LinkedHashMap<>();
            for (Stall s : candidates(process, from, to)) {
                if (s.overlapUs(from, to) > 0 && (connection == ANY_CONNECTION || s.holdsUp(connection))) {
                    byLabel.computeIfAbsent(s.label(), l -> new ArrayList<>()).add(s);
                }
            }
            for (Map.Entry<String, List<Stall>> e : byLabel.entrySet()) {
                long covered = covered(e.getValue(), from, to);
                if (covered > bestUs) {
                    best = e.getKey();
                    bestUs = covered;
                    bestStalls = e.getValue();
                }
            }
        }
        List<Evidence> evidence = bestStalls.stream()
                .sorted(Comparator.comparingLong((Stall s) -> s.overlapUs(from, to)).reversed())
                .limit(MAX_EVIDENCE)
                .map(s -> new Evidence(s.process(), s.cause().wireName(), s.detail(), s.startUs(), s.durationUs(),
                        s.overlapUs(from, to)))
                .toList();
        // measured delays of the request's own threads: their waits for a CPU
        String served = pf.replica[i] >= 0 ? pf.replicaNames.get(pf.replica[i]) : null;
        if (served != null && pf.serverRunQueueUs[i] > bestUs) {
            best = RUN_QUEUE + "(" + served + ")";
            bestUs = pf.serverRunQueueUs[i];
            evidence = List.of(new Evidence(served, RUN_QUEUE, "the bean's thread waited for a CPU (scheduler "
                    + "statistics)", pf.sendUs[i], bestUs, bestUs));
        }
        if (pf.dbRunQueueUs[i] > bestUs) {
            best = RUN_QUEUE + "(" + DATABASE + ")";
            bestUs = pf.dbRunQueueUs[i];
            evidence = List.of(new Evidence(DATABASE, RUN_QUEUE, "the database thread of the transaction's connection "
                    + "waited for a CPU (scheduler statistics)", pf.sendUs[i], bestUs, bestUs));
        }
        if (pf.clientRunQueueUs[i] > bestUs) {
            best = RUN_QUEUE + "(" + CLIENT + ")";
            bestUs = pf.clientRunQueueUs[i];
            evidence = List.of(new Evidence(CLIENT, RUN_QUEUE, "the client's thread waited for a CPU (scheduler "
                    + "statistics)", pf.sendUs[i], bestUs, bestUs));
        }
        // a request's threads run one after another (the client's waits for the bean, the bean's for the database):
        // their waits for a CPU add up along its path, and together are the busy host's share of its latency
        if (bestUs < MIN_SHARE_OF_EXCESS * excess) {
            Map<String, Long> waits = new LinkedHashMap<>();
            if (served != null && pf.serverRunQueueUs[i] > 0) {
                waits.put(served, pf.serverRunQueueUs[i]);
            }
            if (pf.dbRunQueueUs[i] > 0) {
                waits.put(DATABASE, pf.dbRunQueueUs[i]);
            }
            if (pf.clientRunQueueUs[i] > 0) {
                waits.put(CLIENT, pf.clientRunQueueUs[i]);
            }
            long total = waits.values().stream().mapToLong(Long::longValue).sum();
            if (waits.size() > 1 && total > bestUs) {
                List<Map.Entry<String, Long>> byWait = waits.entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).toList();
                // one name per set of threads, in the path's order (replica, database, client): counts add up
                best = RUN_QUEUE + "(" + String.join("+", waits.keySet()) + ")";
                bestUs = total;
                evidence = byWait.stream().map(e -> new Evidence(e.getKey(), RUN_QUEUE, "a thread of the request "
                        + "waited for a CPU (scheduler statistics)", pf.sendUs[i], e.getValue(), e.getValue()))
                        .toList();
            }
        }
        // a wait for a CPU while another JVM of the host was in a stop-the-world collection: the collection's
        // threads held the CPUs (they are as many as the cores). Up to the collection's overlap, the request's waits
        // are credited to it; it is the cause if that is most of the waits
        if (best != null && best.startsWith(RUN_QUEUE + "(")) {
            long waited = Math.max(0, served != null ? pf.serverRunQueueUs[i] : 0) + Math.max(0, pf.dbRunQueueUs[i])
                    + Math.max(0, pf.clientRunQueueUs[i]);
            Neighbour n = neighbourCollection(processes, from, to, waited);
            if (n != null && 2 * n.creditUs() >= waited && n.creditUs() >= MIN_SHARE_OF_EXCESS * excess) {
                best = Stall.Cause.GC_PAUSE.wireName() + "(" + n.process() + ")";
                bestUs = n.creditUs();
                long credit = n.creditUs();
                evidence = n.pauses().stream().limit(MAX_EVIDENCE).map(s -> new Evidence(s.process(),
                        s.cause().wireName(), s.detail() + "; the request's threads waited for a CPU " + waited
                                + " µs meanwhile, " + credit + " µs credited", s.startUs(), s.durationUs(),
                        s.overlapUs(from, to))).toList();
            }
        }
        // whose use filled the CPUs the request's threads waited for: processes outside the lab, or the hypervisor,
        // are the cause if they used more of them than any process of the lab, or a quarter of the host's CPUs (which
        // the lab is meant to have to itself: every wait for a CPU meanwhile is that much longer)
        if (best != null && best.startsWith(RUN_QUEUE + "(")) {
            Map<String, Double> use = CpuUse.over(events, from, to);
            if (!use.isEmpty()) {
                int cpus = events.host().get(0).cpus();
                Map.Entry<String, Double> top = use.entrySet().iterator().next();
                String foreign = use.get(CpuUse.OUTSIDE) >= use.get(CpuUse.STEAL) ? CpuUse.OUTSIDE : CpuUse.STEAL;
                double foreignCpus = use.get(foreign);
                if (foreignCpus >= MIN_FOREIGN_CPUS && (top.getKey().equals(foreign)
                        || foreignCpus >= MIN_FOREIGN_SHARE * cpus)) {
                    best = (foreign.equals(CpuUse.OUTSIDE) ? CPU_OUTSIDE : CPU_STEAL) + "(" + HOST + ")";
                }
                List<Evidence> withUse = new ArrayList<>(evidence);
                withUse.add(new Evidence(HOST, "cpu-use", "CPUs in use meanwhile, of " + events.host().get(0).cpus()
                        + ": " + CpuUse.describe(use), from, to - from, to - from));
                evidence = List.copyOf(withUse);
            }
        }
        boolean named = best != null && excess > 0 && bestUs >= MIN_SHARE_OF_EXCESS * excess;
        // no stall and no wait for a CPU accounts for it: where the HTTP door says when the request arrived, the waits
        // on its way in, measured per request, say where it waited
        Map<String, Long> spans = spans(pf, i);
        if (!named && excess > 0 && served != null && pf.hasServerProbes(i) && pf.serverArriveUs[i] != ProbeFile.NONE) {
            long pool = spans.getOrDefault(POOL_WAIT, 0L);
            long socket = spans.getOrDefault(REQUEST_LEG, 0L);
            long wait = Math.max(pool, socket);
            if (wait > bestUs && wait >= MIN_SHARE_OF_EXCESS * excess) {
                named = true;
                bestUs = wait;
                if (pool >= socket) {
                    best = POOL_WAIT + "(" + served + ")";
                    evidence = List.of(new Evidence(served, POOL_WAIT, "waited between the replica's I/O thread "
                            + "reading it and the bean starting (the worker pool's queue and the dispatch)",
                            pf.serverArriveUs[i], pool, pool));
                } else {
                    best = SOCKET_QUEUE + "(" + served + ")";
                    evidence = List.of(new Evidence(served, SOCKET_QUEUE, "from the client's send to the replica's "
                            + "I/O thread having read it (its bytes waiting in the replica's socket, the client's "
                            + "sending and the loopback)", pf.serverArriveUs[i] - socket, socket, socket));
                }
            }
        }
        return new Outlier(pf.block, pf.clientIds.get(pf.client[i]), pf.seq[i], pf.methods.get(pf.method[i]),
                pf.sendUs[i], latency, excess, blockMax, named ? best : UNEXPLAINED, bestUs,
                latency == 0 ? 0 : bestUs / (double) latency, longest(spans), evidence, spans);
    }

    /** A collection in a JVM that did not serve the request, and the request's CPU waits credited to it. */
    private record Neighbour(String process, long creditUs, List<Stall> pauses) {
    }

    /**
     * The JVM other than {@code own} whose collections overlapped {@code [from, to]} the most, with the credit
     * {@code min(overlap, waitedUs)}; null if none overlapped or the request's threads did not wait for a CPU.
     */
    private Neighbour neighbourCollection(List<String> own, long from, long to, long waitedUs) {
        if (waitedUs <= 0) {
            return null;
        }
        Neighbour best = null;
        for (Map.Entry<String, List<Stall>> e : events.byProcess().entrySet()) {
            if (own.contains(e.getKey())) {
                continue;
            }
            List<Stall> pauses = new ArrayList<>();
            for (Stall s : candidates(e.getKey(), from, to)) {
                if (s.cause() == Stall.Cause.GC_PAUSE && s.overlapUs(from, to) > 0) {
                    pauses.add(s);
                }
            }
            long credit = Math.min(covered(pauses, from, to), waitedUs);
            if (credit > 0 && (best == null || credit > best.creditUs())) {
                pauses.sort(Comparator.comparingLong((Stall s) -> s.overlapUs(from, to)).reversed());
                best = new Neighbour(e.getKey(), credit, pauses);
            }
        }
        return best;
    }

    /** How much of {@code [from, to]} the stalls cover, each µs counted once (stalls by start). */
    static long covered(List<Stall> stalls, long from, long to) {
        long total = 0;
        long reach = from;
        for (Stall s : stalls) {
            long start = Math.max(s.startUs(), reach);
            long end = Math.min(s.endUs(), to);
            if (end > start) {
                total += end - start;
                reach = end;
            }
        }
        return total;
    }

    /**
     * Where a request's time went, from its probes: the longest of {@code client-queue} (an open-loop request waiting
     * for a free worker), {@code failover} (a retried request's detection and fail-over), {@code request-leg} (the
     * client to the bean; where the door says when the request arrived, to the replica's I/O thread, and then
     * {@code pool-wait}, the I/O thread to the bean), {@code server} (the bean, outside its database work), {@code statements} (its transaction's
     * statements: Hibernate, the pool, the driver and the database) and {@code commit} (its commit, the database's log
     * flush among it) — {@code database} for both in a read or a file from before the commit was probed — and
     * {@code reply-leg} (the bean back to the client). The legs compare a client's clock with a replica's: meaningful on one host.
     */
    static String span(ProbeFile pf, int i) {
        return longest(spans(pf, i));
    }

    /** The span that took the longest ("unknown" for none). */
    private static String longest(Map<String, Long> spans) {
        return spans.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .orElse("unknown");
    }

    /** A request's latency by span, µs, in the path's order (those {@link #span} chooses from). */
    static Map<String, Long> spans(ProbeFile pf, int i) {
        Map<String, Long> spans = new LinkedHashMap<>();
        spans.put("client-queue", pf.sendUs[i] - pf.intendedUs[i]);
        if (pf.detectUs[i] != ProbeFile.NONE) {
            spans.put("failover", pf.detectUs[i] + (pf.failoverUs[i] == ProbeFile.NONE ? 0 : pf.failoverUs[i]));
        }
        if (pf.hasServerProbes(i)) {
            long start = pf.retryUs[i] != ProbeFile.NONE ? pf.recvUs[i] - pf.retryUs[i] : pf.sendUs[i];
            long arrived = pf.serverArriveUs[i];
            // the wait for a worker is on the replica's clock alone; the rest of the way in compares two clocks
            long pool = arrived == ProbeFile.NONE ? 0 : Math.max(0, pf.serverRecvUs[i] - arrived);
            spans.put(REQUEST_LEG, pf.serverRecvUs[i] - start - pool);
            if (arrived != ProbeFile.NONE) {
                spans.put(POOL_WAIT, pool);
            }
            spans.put("server", (pf.dbStartUs[i] - pf.serverRecvUs[i]) + (pf.serverSendUs[i] - pf.dbEndUs[i]));
            long commit = pf.commitStartUs[i];
            if (commit != ProbeFile.NONE && commit >= pf.dbStartUs[i] && commit <= pf.dbEndUs[i]) {
                spans.put("statements", commit - pf.dbStartUs[i]);
                spans.put("commit", pf.dbEndUs[i] - commit);
            } else {
                spans.put("database", pf.dbEndUs[i] - pf.dbStartUs[i]);
            }
            spans.put("reply-leg", pf.recvUs[i] - pf.serverSendUs[i]);
        }
        return spans;
    }
}
