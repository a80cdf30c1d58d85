package org.ftlab.harness.grid;

import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.history.History;
import org.ftlab.harness.workload.ClientSession;
import org.ftlab.harness.workload.Workload;
import org.ftlab.rm.api.Platform;

/** One client of the run: its session (id, fail-over client, sequence numbers) and its workload's generator. */
record GridClient(ClientSession session, Workload.Client workload) {
    /**
     * A client of {@code strategy} through {@code platform} on {@code lab}, its workload's state set up, its operations
     * (its setup's too) recorded in {@code history}.
     */
    static GridClient open(GridLab lab, Workload workload, Strategies.Kind strategy, ClientTuning tuning,
            Platform platform, String clientId, History history) throws Exception {
        ClientSession s = new ClientSession(clientId, lab.client(strategy, tuning, ClientSession.GIVE_UP, platform));
        s.recordInto(history);
        try {
            return new GridClient(s, workload.open(s));
        } catch (Exception | Error e) {
            s.close();
            throw e;
        }
    }

    String clientId() {
        return session.clientId;
    }

    void close() {
        session.close();
    }
}
