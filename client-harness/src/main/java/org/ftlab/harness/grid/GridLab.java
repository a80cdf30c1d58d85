package org.ftlab.harness.grid;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.failover.FailoverClient;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.lab.ManagedLab;
import org.ftlab.rm.api.DegreeChange;
import org.ftlab.rm.api.FaultSpec;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.ManagerStatus;
import org.ftlab.rm.api.Platform;

/**
 * What a grid run needs of a lab: the manager's status and its fault injection, waits until the lab is at strength,
 * fail-over clients, and the run directory the lab records its database in. The lab is a {@link ManagedLab} (real
 * processes); a test of the grid code may give replicas simulated in its JVM instead.
 */
public interface GridLab {
    ManagerStatus status() throws IOException;

    InjectedFault inject(FaultSpec spec) throws IOException;

    /** See {@link ManagedLab#awaitFullStrength}. */
    boolean awaitFullStrength(BooleanSupplier going, BooleanSupplier sparesCanWait) throws IOException,
            InterruptedException;

    /** See {@link ManagedLab#awaitReadyForFault}. */
    boolean awaitReadyForFault(BooleanSupplier going, BooleanSupplier spareCanWait) throws IOException,
            InterruptedException;

    /**
     * The view's replication degree becomes {@code replicas} (a grid whose degree is a factor); a degree the lab
     * cannot reach is refused in one line.
     */
    DegreeChange.Result setDegree(int replicas) throws IOException;

    /** A client of strategy {@code kind} on this lab's replicas, through middleware {@code platform}. */
    FailoverClient client(Strategies.Kind kind, ClientTuning tuning, Duration giveUp, Platform platform)
            throws Exception;

    Path runDir();

    /** The lab of real processes. */
    static GridLab of(ManagedLab lab) {
        return new GridLab() {
            @Override
            public ManagerStatus status() throws IOException {
                return lab.manager().status();
            }

            @Override
            public InjectedFault inject(FaultSpec spec) throws IOException {
                return lab.manager().inject(spec);
            }

            @Override
            public boolean awaitFullStrength(BooleanSupplier going, BooleanSupplier sparesCanWait)
                    throws IOException, InterruptedException {
                return lab.awaitFullStrength(going, sparesCanWait);
            }

            @Override
            public boolean awaitReadyForFault(BooleanSupplier going, BooleanSupplier spareCanWait)
                    throws IOException, InterruptedException {
                return lab.awaitReadyForFault(going, spareCanWait);
            }

            @Override
            public DegreeChange.Result setDegree(int replicas) throws IOException {
                return lab.manager().setDegree(replicas);
            }

            @Override
            public FailoverClient client(Strategies.Kind kind, ClientTuning tuning, Duration giveUp,
                    Platform platform) throws Exception {
                return new FailoverClient(lab.manager(), lab.user(), kind, tuning, giveUp, platform);
            }

            @Override
            public Path runDir() {
                return lab.runDir();
            }
        };
    }
}
