package org.ftlab.rm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.ftlab.rm.api.ManagerEndpoint;
import org.junit.jupiter.api.Test;

class ReplicationManagerMainTest {
    @Test
    void theContractNamesTheMainClassThatClientsStart() {
        assertEquals(ReplicationManagerMain.class.getName(), ManagerEndpoint.MAIN_CLASS);
    }
}
