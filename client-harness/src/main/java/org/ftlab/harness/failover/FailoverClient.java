package org.ftlab.harness.failover;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.auction.client.ClusterConnection;
import org.ftlab.auction.client.ServiceConnection;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.os.access.ApplicationUser;
import org.ftlab.rm.api.Platform;
import org.ftlab.rm.api.PrimaryBackupView;

/**
 * A client's fault-tolerant view of the service: one {@link FailoverStrategy}, chosen by name, working through the
 * client's own {@link ReplicaSet}. Safe for concurrent invocations (an open-loop client has several in flight).
 */
public final class FailoverClient implements AutoCloseable {
    private final String strategyName;
    private final ReplicaSet replicas;
    private final FailoverStrategy strategy;
    /** Null without shadow traffic. */
    private final Shadow shadow;

    /**
     * A client of a built-in strategy with adaptive timing.
     *
     * @param strategy a name from {@link Strategies#names()}
     * @param giveUpAfter how long one request may keep failing over before {@link AllReplicasDownException}
     */
    public FailoverClient(ManagerClient manager, ApplicationUser user, String strategy, Duration giveUpAfter)
            throws IOException, NamingException {
        this(manager, user, Strategies.named(strategy), ClientTuning.ADAPTIVE, giveUpAfter);
    }

    /**
     * A client of strategy {@code kind} (built in, or a plug-in from {@link Strategies#resolve}) with the given
     * timing knobs. A plug-in whose constructor throws fails here with a {@link PluginFailure}.
     */
    public FailoverClient(ManagerClient manager, ApplicationUser user, Strategies.Kind kind, ClientTuning tuning,
            Duration giveUpAfter) throws IOException, NamingException {
        this(manager, user, kind, tuning, giveUpAfter, Platform.EJB);
    }

    /** As above, reaching the replicas through middleware {@code platform} (remote EJB, or HTTP with JSON). */
    public FailoverClient(ManagerClient manager, ApplicationUser user, Strategies.Kind kind, ClientTuning tuning,
            Duration giveUpAfter, Platform platform) throws IOException, NamingException {
        this(lab(manager, user, platform), kind, tuning, giveUpAfter);
    }

    /** A client of strategy {@code kind} on the replicas {@code lab} gives (the lab's, or simulated ones). */
    FailoverClient(ReplicaSet.Lab lab, Strategies.Kind kind, ClientTuning tuning, Duration giveUpAfter)
            throws IOException, NamingException {
        this.strategyName = kind.name();
        this.replicas = new ReplicaSet(lab, kind.keepsReplicasConnected(), giveUpAfter.toNanos(), tuning);
        try {
            this.strategy = kind.factory().apply(replicas);
        } catch (RuntimeException e) {
            replicas.close();
            throw e;
        }
        this.shadow = tuning.shadowShare() > 0 ? new Shadow(lab, tuning.shadowShare()) : null;
    }

    /**
     * The lab as a replica set sees it: the manager's view and reports, and connections of {@code platform} as the
     * run's user.
     */
    private static ReplicaSet.Lab lab(ManagerClient manager, ApplicationUser user, Platform platform) {
        return new ReplicaSet.Lab() {
            @Override
            public PrimaryBackupView view() throws IOException {
                return manager.view();
            }

            @Override
            public boolean report(String replica) throws IOException {
                return manager.report(replica);
            }

            @Override
            public ServiceConnection connect(PrimaryBackupView.Member member) throws NamingException {
                return ServiceConnection.open(platform, member.uri(), user.username(), user.password(),
                        InvocationTimeout.CEILING_MILLIS);
            }

            @Override
            public ServiceConnection connectCluster(List<PrimaryBackupView.Member> members,
                    long invocationTimeoutMillis) throws NamingException {
                if (platform != Platform.EJB) {
                    throw new IllegalArgumentException(WildFlyClusterStrategy.NAME + " is WildFly's remote EJB "
                            + "client: it runs over --platform ejb only, not " + platform.wireName());
                }
                return ClusterConnection.open(members.stream().map(PrimaryBackupView.Member::uri)
                        .toList(), user.username(), user.password(), invocationTimeoutMillis);
            }
        };
    }

    /** Invokes {@code call}, named {@code operation} for the policies that keep a history per operation. */
    public <T> Outcome<T> invoke(String operation, Call<T> call) throws AuctionException, AllReplicasDownException {
        return strategy.invoke(operation, call);
    }

    /** Invokes a call outside the measured operations (set-up, pings). */
    public <T> Outcome<T> invoke(Call<T> call) throws AuctionException, AllReplicasDownException {
        return strategy.invoke("other", call);
    }

    /**
     * After a request was answered: its shadow ({@code RequestHeader#shadow}; null: the operation has none), which
     * a client with shadow traffic sends to every backup with the probability of its share ({@link Shadow}), off
     * this thread. A shadow's answer is thrown away.
     */
    public void mirror(Call<?> shadowCall) {
        if (shadow != null) {
            shadow.offer(shadowCall);
        }
    }

    /** What this client's shadows did (all 0 without shadow traffic). */
    public Shadow.Counts shadowCounts() {
        return shadow == null ? new Shadow.Counts(0, 0, 0, 0) : shadow.counts();
    }

    /** Whether this client has read view {@code epoch} (or a newer one) and is connected as its strategy needs. */
    public boolean follows(long epoch) {
        return replicas.follows(epoch);
    }

    /** The replica requests currently go to. */
    public String currentReplica() {
        return replicas.current().name();
    }

    public String strategy() {
        return strategyName;
    }

    /** Suspicions of this client that the Replication Manager declined (the replica was running). */
    public int falseSuspicions() {
        return replicas.falseSuspicions();
    }

    /** The invocation timeout the next attempt gets, ms. */
    public long invocationTimeoutMillis() {
        return replicas.timeout().currentMillis();
    }

    /** A plug-in strategy's first breach of its contract (it threw, or hung), or null. */
    public PluginFailure pluginFailure() {
        return strategy instanceof PluginStrategy p ? p.failure() : null;
    }

    @Override
    public void close() {
        if (shadow != null) {
            shadow.close();
        }
        if (strategy instanceof PluginStrategy p) {
            p.close();
        }
        if (strategy instanceof WildFlyClusterStrategy w) {
            w.close();
        }
        replicas.close();
    }
}
