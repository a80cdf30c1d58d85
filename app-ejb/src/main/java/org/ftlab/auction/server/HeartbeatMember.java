package org.ftlab.auction.server;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.ftlab.fd.HeartbeatStack;
import org.ftlab.fd.MemberName;
import org.jgroups.JChannel;

/**
 * This replica's membership in the heartbeat group that the Fault Detector watches. It runs inside the replica's
 * JVM on purpose: a stopped (SIGSTOP) or wedged JVM stops heartbeating, and a killed one closes its sockets.
 * Started with the deployment and closed (a clean leave, not a failure) when the server shuts down.
 */
@Startup
@Singleton
public class HeartbeatMember {
    private static final Logger LOG = Logger.getLogger(HeartbeatMember.class.getName());
    private JChannel channel;

    @PostConstruct
    void join() {
        if (System.getProperty("ftlab.hb.initial_hosts") == null) {
            LOG.info("no heartbeat group configured (ftlab.hb.initial_hosts unset); this replica is not monitored");
            return;
        }
        String replica = System.getProperty("jboss.node.name", "unnamed");
        try {
            channel = HeartbeatStack.create(MemberName.of(replica, ProcessHandle.current().pid()));
            channel.connect(HeartbeatStack.CLUSTER);
            LOG.info("joined heartbeat group as " + channel.getAddress() + ", view " + channel.getView());
        } catch (Exception e) {
            // A replica the detector cannot see must not serve: fail the deployment, the launcher reports it.
            throw new IllegalStateException("cannot join the heartbeat group: " + e.getMessage(), e);
        }
    }

    @PreDestroy
    void leave() {
        if (channel != null) {
            channel.close();
        }
    }
}
