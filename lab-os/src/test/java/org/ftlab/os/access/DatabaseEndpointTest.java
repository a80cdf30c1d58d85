package org.ftlab.os.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DatabaseEndpointTest {

    @Test
    void onlyConnectorJUrlsAreAccepted() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DatabaseEndpoint("jdbc:mariadb://h/db", "u", "p"));
        assertTrue(e.getMessage().contains("must start with jdbc:mysql://"));
    }

    @Test
    void defaultOptionsAreAddedWithoutOverridingTheUsers() {
        DatabaseEndpoint e = new DatabaseEndpoint("jdbc:mysql://h:3306/ftlab?useInformationSchema=true", "u", "p")
                .withDefaultOptions();
        assertEquals("jdbc:mysql://h:3306/ftlab?useInformationSchema=true&connectionTimeZone=UTC"
                + "&forceConnectionTimeZoneToSession=true&useLocalSessionState=true&useLocalTransactionState=true",
                e.jdbcUrl());
        assertEquals("jdbc:mysql://h/db?useInformationSchema=false&connectionTimeZone=UTC"
                + "&forceConnectionTimeZoneToSession=true&useLocalSessionState=true&useLocalTransactionState=true",
                new DatabaseEndpoint("jdbc:mysql://h/db", "u", null).withDefaultOptions().jdbcUrl());
        assertEquals("jdbc:mysql://h/db?useLocalSessionState=false&useInformationSchema=false&connectionTimeZone=UTC"
                + "&forceConnectionTimeZoneToSession=true&useLocalTransactionState=true",
                new DatabaseEndpoint("jdbc:mysql://h/db?useLocalSessionState=false", "u", null).withDefaultOptions()
                        .jdbcUrl());
    }

    @Test
    void passwordsInTheUrlNeverReachLogs() {
        DatabaseEndpoint e = new DatabaseEndpoint("jdbc:mysql://h/db?user=a&password=s3cret&x=1", "u", "p");
        assertFalse(e.toString().contains("s3cret"));
        assertFalse(e.toString().contains("password=p"));
        assertTrue(e.redactedUrl().contains("password=***&x=1"));
    }
}
