package org.ftlab.harness.failover;

import java.io.IOException;
import java.time.Duration;
import javax.naming.NamingException;
import org.ftlab.auction.api.AuctionException;
import org.ftlab.harness.lab.ManagerClient;
import org.ftlab.rm.replica.ApplicationUser;

/**
 * A client's fault-tolerant view of the service: one {@link FailoverStrategy}, chosen by name, working through the
 * client's own {@link ReplicaSet}. Safe for concurrent invocations (an open-loop client has several in flight).
 */
public final class FailoverClient implements AutoCloseable {
    private final String strategyName;
    private final ReplicaSet replicas;
    private final FailoverStrategy strategy;

    /**
     * @param strategy a name from {@link Strategies#names()}
     * @param giveUpAfter how long one request may keep failing over before {@link AllReplicasDownException}
     */
    public FailoverClient(ManagerClient manager, ApplicationUser user, String strategy, Duration giveUpAfter)
            throws IOException, NamingException {
        Strategies.Kind kind = Strategies.named(strategy);
        this.strategyName = kind.name();
        this.replicas = new ReplicaSet(manager, user, kind.keepsReplicasConnected(), giveUpAfter.toNanos());
        this.strategy = kind.factory().apply(replicas);
    }

    /** Invokes {@code call}, named {@code operation} for the policies that keep a history per operation. */
    public <T> Outcome<T> invoke(String operation, Call<T> call) throws AuctionException, AllReplicasDownException {
        return strategy.invoke(operation, call);
    }

    /** Invokes a call outside the measured operations (set-up, pings). */
    public <T> Outcome<T> invoke(Call<T> call) throws AuctionException, AllReplicasDownException {
        return strategy.invoke("other", call);
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

    @Override
    public void close() {
        replicas.close();
    }
}
