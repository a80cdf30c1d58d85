package org.ftlab.harness.failover;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in strategies against the test kit's replicas: where each sends a request when a replica fails. */
class StrategiesOnSimulatedReplicasTest {
    private static FailoverStrategy make(String name, ReplicaSet set) {
        return Strategies.named(name).factory().apply(set);
    }

    @Test
    void reactiveClientWaitsForTheManagersNewPrimaryAfterACrash() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(3);
        try (ReplicaSet set = lab.replicaSet(false, Duration.ofSeconds(5), ClientTuning.ADAPTIVE)) {
            FailoverStrategy s = make("reactive", set);
            lab.crash("r1");
            Outcome<String> o = s.invoke("ping", SimulatedReplicas.PING);
            assertEquals("r2", o.result());
            assertTrue(o.faulty());
            assertEquals("r1", o.phases().failedReplica());
            assertEquals(List.of("r2", "r3"), lab.view(), "the manager confirmed the crash");
        }
    }

    @Test
    void aClientIgnoresTheOlderViewOfADeposedManagerAndStaysWithTheNewPrimary() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(3);
        try (ReplicaSet set = lab.replicaSet(false, Duration.ofSeconds(5), ClientTuning.ADAPTIVE)) {
            FailoverStrategy s = make("reactive", set);
            lab.crash("r1");
            assertEquals("r2", s.invoke("ping", SimulatedReplicas.PING).result());
            long epoch = set.view(false).epoch();

            lab.answerFromADeposedManager(); // r1 the primary again, in the epoch before
            assertEquals(epoch, set.view(true).epoch(), "the newest view seen is kept");
            assertEquals("r2", set.view(false).primary().name());
            Outcome<String> o = s.invoke("ping", SimulatedReplicas.PING);
            assertEquals("r2", o.result());
            assertFalse(o.faulty(), "not sent to the crashed replica the older view names");
        }
    }

    @Test
    void preconnectedClientSwitchesToTheReadyBackupAfterACrash() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(2);
        try (ReplicaSet set = lab.replicaSet()) {
            FailoverStrategy s = make("preconnected", set);
            lab.crash("r1");
            Outcome<String> o = s.invoke("ping", SimulatedReplicas.PING);
            assertEquals("r2", o.result());
            assertEquals(Outcome.Served.FAIL_OVER, o.served());
            assertEquals(2, o.phases().attempts());
        }
    }

    @Test
    void aHungPrimaryIsLeftWhenTheFixedInvocationTimeoutPasses() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(2);
        try (ReplicaSet set = lab.replicaSet(true, Duration.ofSeconds(5), new ClientTuning(80L, null))) {
            FailoverStrategy s = make("preconnected", set);
            lab.hang("r1");
            Outcome<String> o = s.invoke("ping", SimulatedReplicas.PING);
            assertEquals("r2", o.result());
            assertTrue(o.phases().detectMicros() >= 80_000, "detection waited for the timeout");
        }
    }

    @Test
    void hedgedClientTakesTheBackupsAnswerWhenThePrimaryIsSlowerThanTheHedgeDelay() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(2);
        try (ReplicaSet set = lab.replicaSet(true, Duration.ofSeconds(5), new ClientTuning(1_000L, 20L))) {
            FailoverStrategy s = make("hedged", set);
            lab.slow("r1", Duration.ofMillis(300));
            Outcome<String> o = s.invoke("ping", SimulatedReplicas.PING);
            assertEquals("r2", o.result());
            assertEquals(Outcome.Served.HEDGE, o.served(), "a hedge, not a fail-over: r1 did not fail");
            assertEquals(2, o.sentTo());
        }
    }

    @Test
    void aSlowReplicaSuspectedByTheClientIsDeclinedByTheManagerAndCountedFalse() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(2);
        try (ReplicaSet set = lab.replicaSet(true, Duration.ofSeconds(5), new ClientTuning(30L, null))) {
            FailoverStrategy s = make("preconnected", set);
            lab.slow("r1", Duration.ofMillis(200));
            Outcome<String> o = s.invoke("ping", SimulatedReplicas.PING);
            assertEquals("r2", o.result());
            long until = System.nanoTime() + 2_000_000_000L;
            while (set.falseSuspicions() == 0 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            assertEquals(1, set.falseSuspicions());
            assertEquals(List.of("r1", "r2"), lab.view(), "r1 still serves");
        }
    }

    @Test
    void activeClientSendsEveryRequestToEveryServingReplica() throws Exception {
        SimulatedReplicas lab = SimulatedReplicas.of(3);
        try (ReplicaSet set = lab.replicaSet()) {
            long until = System.nanoTime() + 2_000_000_000L;
            while (set.serving().size() < 3 && System.nanoTime() < until) {
                Thread.sleep(5);
            }
            FailoverStrategy s = make("active", set);
            Outcome<String> o = s.invoke("ping", SimulatedReplicas.PING);
            assertEquals(3, o.sentTo());
            assertFalse(o.faulty());
        }
    }
}
