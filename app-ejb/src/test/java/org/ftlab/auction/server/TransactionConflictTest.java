package org.ftlab.auction.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransactionRollbackException;
import org.junit.jupiter.api.Test;

/** Which database errors make a request's transaction run again rather than fail the request. */
class TransactionConflictTest {

    private static PersistenceException wrapped(SQLException cause) {
        return new PersistenceException("could not execute statement", new RuntimeException("jdbc", cause));
    }

    @Test
    void aDuplicateKeyTakenByATwinRunsAgain() {
        assertTrue(AuctionServiceBean.isConflict(wrapped(
                new SQLIntegrityConstraintViolationException("Duplicate entry", "23000", 1062))));
    }

    @Test
    void aDeadlockVictimRunsAgain() {
        // what MariaDB reports to the twin chosen as victim when a dead replica's transaction rolls back
        assertTrue(AuctionServiceBean.isConflict(wrapped(
                new SQLTransactionRollbackException("Deadlock found when trying to get lock", "40001", 1213))));
    }

    @Test
    void aLockWaitTimeoutRunsAgain() {
        assertTrue(AuctionServiceBean.isConflict(wrapped(
                new SQLException("Lock wait timeout exceeded; try restarting transaction", "HY000", 1205))));
    }

    @Test
    void otherDatabaseErrorsFailTheRequest() {
        assertFalse(AuctionServiceBean.isConflict(wrapped(new SQLException("Unknown column", "42S22", 1054))));
        assertFalse(AuctionServiceBean.isConflict(wrapped(new SQLException("Communications link failure", "08S01"))));
        assertFalse(AuctionServiceBean.isConflict(new PersistenceException("no SQL cause")));
    }
}
