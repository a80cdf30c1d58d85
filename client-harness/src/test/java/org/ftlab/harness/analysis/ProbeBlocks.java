package org.ftlab.harness.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.ftlab.harness.probe.ProbeFile;
import org.ftlab.harness.probe.ProbeTable;

/** Probe blocks for the fail-over parts' tests: rows of one client, written as a v3 file and read back. */
final class ProbeBlocks {
    private ProbeBlocks() {
    }

    /**
     * A completed row: sent at {@code sendUs}, answered {@code latencyUs} later by {@code replica} with
     * {@code outcome} ({@code ok}, {@code retried}, {@code hedged}), during fault {@code faultId} (empty: none);
     * a {@code retried} row carries fail-over phases.
     */
    static String row(int seq, long sendUs, long latencyUs, String replica, String outcome, String faultId) {
        String phases = outcome.equals("retried") ? "5000,1000,4000" : ",,";
        return "a," + seq + ",postAuction,," + sendUs + "," + (sendUs + latencyUs) + "," + (sendUs + 10) + ","
                + (sendUs + 20) + "," + (sendUs + 30) + "," + (sendUs + latencyUs - 10) + "," + sendUs + ","
                + replica + "," + outcome + "," + faultId + "," + phases + "," + sendUs + ",measure,1,1";
    }

    /** A failed row, sent at {@code sendUs} during fault {@code faultId} (empty: none). */
    static String failed(int seq, long sendUs, String faultId) {
        return "a," + seq + ",postAuction,," + sendUs + "," + (sendUs + 1_000) + ",,,,," + sendUs
                + ",,failed:AllReplicasDownException," + faultId + ",,,," + sendUs + ",measure,1,1";
    }

    /** Block {@code name} of {@code rows}, written under {@code dir}/probes and read. */
    static ProbeFile block(Path dir, String name, List<String> rows) throws IOException {
        Path probes = Files.createDirectories(dir.resolve("probes"));
        Path file = probes.resolve(name + ".csv");
        Files.writeString(file, ProbeTable.HEADER_V3 + "\n" + String.join("\n", rows) + "\n");
        return ProbeFile.read(file);
    }
}
