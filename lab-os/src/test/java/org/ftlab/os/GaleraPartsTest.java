package org.ftlab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class GaleraPartsTest {
    @Test
    void aMissingProviderIsOneLineWithTheInstallCommand() {
        assertEquals("--database galera needs Galera's provider (Debian's galera-4), which this machine lacks; install "
                + "them with scripts/install-galera (as root: apt-get install galera-4 rsync, and the scripts from "
                + "Debian's mariadb-server package)", GaleraParts.missing(false, true, true));
    }

    @Test
    void everyMissingPartIsNamed() {
        String line = GaleraParts.missing(false, false, false);
        assertEquals(1, line.lines().count());
        assertEquals(true, line.contains("galera-4") && line.contains("rsync") && line.contains("wsrep_sst_rsync"));
    }

    @Test
    void nothingMissingIsNoError() {
        assertEquals("", GaleraParts.missing(true, true, true));
    }
}
