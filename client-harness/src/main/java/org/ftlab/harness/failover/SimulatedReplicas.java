package org.ftlab.harness.failover;

import jakarta.ejb.EJBException;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionService;
import org.ftlab.auction.client.ServiceConnection;
import org.ftlab.rm.api.DatabaseView;
import org.ftlab.rm.api.ManagerGroup;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.PrimaryBackupView;
import org.ftlab.rm.api.ReplicaState;
import org.ftlab.rm.api.ReplicaStatus;

/**
 * Replicas in this JVM for a strategy's unit tests, the test kit of plug-in strategies (docs/labs/plugins.md): a
 * primary-backup view ({@code r1} primary, then the backups in promotion order), a manager that confirms a
 * suspicion of a failed replica (and promotes the next one) and declines one of a running replica, and replicas that
 * answer {@link #PING} with their name. A test crashes, hangs or slows a replica, sends a request through a strategy
 * and checks which replica answered, how, and after how many attempts.
 *
 * <p>What it is not: the lab. There is no EJB, no database and no probe here, and it answers {@code ping} only; a
 * strategy's measurements come from {@code ftlab grid --strategy class:NAME}, on real replicas. Failures look to a
 * strategy as they do there: a crashed replica fails a call at once, a hung one when the invocation timeout passes
 * (or when the manager fences it), both as a {@link RuntimeException}.
 */
public final class SimulatedReplicas {
    /** The call the simulated replicas answer: their name. */
    public static final Call<String> PING = AuctionService::ping;

    private enum State { RUNNING, CRASHED, HUNG }

    private final class Replica {
        final String name;
        volatile State state = State.RUNNING;
        volatile long delayMillis;
        final AtomicInteger calls = new AtomicInteger();
        /** Counted down when the manager fences this replica: a hung call then fails at once. */
        final CountDownLatch fenced = new CountDownLatch(1);

        Replica(String name) {
            this.name = name;
        }
    }

    private final Map<String, Replica> replicas = new LinkedHashMap<>();
    private final List<String> view = new ArrayList<>();
    private long epoch = 1;
    /** The primary that last left the view, which a deposed manager still names; null if none has. */
    private String lastLeft;
    /** The view a deposed manager answers with ({@link #answerFromADeposedManager}), or null. */
    private PrimaryBackupView deposedView;
    private final AtomicInteger reports = new AtomicInteger();

    private SimulatedReplicas(int n) {
        for (int i = 1; i <= n; i++) {
            Replica r = new Replica("r" + i);
            replicas.put(r.name, r);
            view.add(r.name);
        }
    }

    /** {@code n} running replicas, {@code r1} the primary. */
    public static SimulatedReplicas of(int n) {
        if (n < 1 || n > 9) {
            throw new IllegalArgumentException("1 to 9 replicas, was " + n);
        }
        return new SimulatedReplicas(n);
    }

    /**
     * A client's replica set on these replicas, as a plug-in strategy gets it in a grid run: ready connections to
     * every serving replica, the view followed, the adaptive invocation timeout and hedge delay, and a 5 s bound on
     * one request's fail-overs. Close it after the test.
     */
    public ReplicaSet replicaSet() {
        return replicaSet(true, Duration.ofSeconds(5), ClientTuning.ADAPTIVE);
    }

    /** As {@link #replicaSet()}, with the connections kept or not, the give-up bound and the timing knobs. */
    public ReplicaSet replicaSet(boolean keepConnected, Duration giveUp, ClientTuning tuning) {
        try {
            ReplicaSet set = new ReplicaSet(lab(), keepConnected, giveUp.toNanos(), tuning);
            if (keepConnected) {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (set.standby(set.current()) == null && replicas.size() > 1 && System.nanoTime() < until) {
                    Thread.sleep(5); // the keeper's first round connects to the backups
                }
            }
            return set;
        } catch (IOException | NamingException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A fail-over client of strategy {@code kind} on these replicas, as the grid makes one for each of its clients:
     * with it, the grid code runs on simulated replicas (a workload of {@code ping}s only). Close it after the test.
     */
    public FailoverClient client(Strategies.Kind kind, ClientTuning tuning, Duration giveUp) throws IOException,
            NamingException {
        return new FailoverClient(lab(), kind, tuning, giveUp);
    }

    /**
     * The manager's status as the grid reads it: the view (its epoch, the primary, the degree against the replicas
     * it started with), every replica and its state, no spares, and no failure or fault records (a test makes
     * failures by {@link #crash} and {@link #hang}, not through the manager).
     */
    public synchronized ManagerStatus status() {
        List<ReplicaStatus> all = new ArrayList<>();
        for (Replica r : replicas.values()) {
            ReplicaState state = !view.contains(r.name) ? ReplicaState.DEAD
                    : view.get(0).equals(r.name) ? ReplicaState.PRIMARY : ReplicaState.BACKUP;
            all.add(new ReplicaStatus(r.name, state, null, 0, 0, "sim://" + r.name, 0, null, null, null, null));
        }
        return new ManagerStatus(epoch, view.isEmpty() ? null : view.get(0), view.size(), replicas.size(), List.of(),
                0, 0, 0, 0, 0, "simulated", all, List.of(), List.of(), DatabaseView.single("simulated", 0),
                new ManagerGroup(List.of("simulated"), "simulated", 1, List.of()));
    }

    /** SIGKILL, as it looks from a client: every call to {@code name} fails at once from now on. */
    public void crash(String name) {
        replica(name).state = State.CRASHED;
    }

    /** SIGSTOP: calls to {@code name} get no answer; each fails when its invocation timeout passes or at a fence. */
    public void hang(String name) {
        replica(name).state = State.HUNG;
    }

    /** A slow but running replica: it answers after {@code delay}; a report of it is declined. */
    public void slow(String name, Duration delay) {
        replica(name).delayMillis = delay.toMillis();
    }

    /** Calls that reached {@code name}, answered or not. */
    public int calls(String name) {
        return replica(name).calls.get();
    }

    /** Reports the manager received (confirmed or declined). */
    public int reports() {
        return reports.get();
    }

    /** The serving replicas, primary first. */
    public synchronized List<String> view() {
        return List.copyOf(view);
    }

    private Replica replica(String name) {
        Replica r = replicas.get(name);
        if (r == null) {
            throw new IllegalArgumentException("no replica " + name + "; there are " + replicas.keySet());
        }
        return r;
    }

    private synchronized PrimaryBackupView currentView() {
        if (deposedView != null) {
            return deposedView;
        }
        List<PrimaryBackupView.Member> members = new ArrayList<>();
        view.forEach(n -> members.add(new PrimaryBackupView.Member(n, "sim://" + n)));
        return new PrimaryBackupView(epoch, members);
    }

    /**
     * From now on the view is read from a manager deposed before the last change of the view: it answers with the
     * view it knew then (the epoch before, the replica that left it still in it), as a leader woken from a hang
     * answers until it learns it was replaced.
     */
    public synchronized void answerFromADeposedManager() {
        if (lastLeft == null) {
            throw new IllegalStateException("the view has not changed yet");
        }
        List<PrimaryBackupView.Member> members = new ArrayList<>();
        members.add(new PrimaryBackupView.Member(lastLeft, "sim://" + lastLeft));
        view.forEach(n -> members.add(new PrimaryBackupView.Member(n, "sim://" + n)));
        deposedView = new PrimaryBackupView(epoch - 1, members);
    }

    /** The manager: a failed replica is confirmed, fenced and left out of the view; a running one is declined. */
    private synchronized boolean report(String name) {
        reports.incrementAndGet();
        Replica r = replica(name);
        if (r.state == State.RUNNING) {
            return false;
        }
        r.fenced.countDown();
        int index = view.indexOf(name);
        if (view.remove(name)) {
            epoch++;
            lastLeft = index == 0 ? name : null; // only a primary's leaving is answered by a deposed manager
        }
        return true;
    }

    private ReplicaSet.Lab lab() {
        return new ReplicaSet.Lab() {
            @Override
            public PrimaryBackupView view() {
                return currentView();
            }

            @Override
            public boolean report(String replica) {
                return SimulatedReplicas.this.report(replica);
            }

            @Override
            public ServiceConnection connect(PrimaryBackupView.Member member) throws NamingException {
                Replica r = replica(member.name());
                if (r.state == State.CRASHED) {
                    throw new NamingException("simulated: " + r.name + " refuses connections (crashed)");
                }
                return new SimulatedConnection(r);
            }
        };
    }

    private final class SimulatedConnection implements ServiceConnection {
        private final Replica replica;
        private volatile long timeoutMillis = InvocationTimeout.CEILING_MILLIS;
        private final AuctionService service;

        SimulatedConnection(Replica replica) {
            this.replica = replica;
            this.service = (AuctionService) Proxy.newProxyInstance(AuctionService.class.getClassLoader(),
                    new Class<?>[] {AuctionService.class}, (proxy, method, args) -> {
                        if (method.getDeclaringClass() == Object.class) {
                            return switch (method.getName()) {
                                case "toString" -> "simulated " + replica.name;
                                case "hashCode" -> System.identityHashCode(proxy);
                                case "equals" -> proxy == args[0];
                                default -> throw new UnsupportedOperationException(method.getName());
                            };
                        }
                        if (!method.getName().equals("ping")) {
                            throw new UnsupportedOperationException("the simulated replicas answer ping only; "
                                    + method.getName() + " runs on the lab's replicas (ftlab grid)");
                        }
                        return call();
                    });
        }

        private String call() throws InterruptedException {
            replica.calls.incrementAndGet();
            long timeout = timeoutMillis;
            switch (replica.state) {
                case CRASHED -> throw new EJBException("simulated: connection to " + replica.name + " closed "
                        + "(crashed)");
                case HUNG -> {
                    if (replica.fenced.await(timeout, TimeUnit.MILLISECONDS)) {
                        throw new EJBException("simulated: connection to " + replica.name + " closed (fenced)");
                    }
                    throw new EJBException(new TimeoutException("simulated: no answer from "
                            + replica.name + " in " + timeout + " ms"));
                }
                default -> {
                    long delay = replica.delayMillis;
                    if (delay > timeout) {
                        Thread.sleep(timeout);
                        throw new EJBException(new TimeoutException("simulated: no answer "
                                + "from " + replica.name + " in " + timeout + " ms"));
                    }
                    if (delay > 0) {
                        Thread.sleep(delay);
                    }
                    return replica.name;
                }
            }
        }

        @Override
        public AuctionService service() {
            return service;
        }

        @Override
        public void invocationTimeout(long millis) {
            timeoutMillis = millis;
        }

        @Override
        public void close() {
            // nothing to release
        }
    }
}
