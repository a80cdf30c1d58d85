package org.ftlab.fd;

/** A bare heartbeat-group member in its own JVM, as a replica's HeartbeatMember is: the target of test signals. */
public final class HeartbeatMemberProcess {
    private HeartbeatMemberProcess() {
    }

    /** Arguments: own TCP port, the detectors' ports (comma-separated), replica name. */
    public static void main(String[] args) throws Exception {
        System.setProperty("ftlab.hb.bind_port", args[0]);
        System.setProperty("ftlab.hb.initial_hosts", FaultDetectorTest.localHosts(args[1]));
        var channel = HeartbeatStack.create(MemberName.of(args[2], ProcessHandle.current().pid()));
        channel.connect(HeartbeatStack.CLUSTER);
        System.out.println("joined");
        System.out.flush();
        Thread.sleep(600_000);
    }
}
