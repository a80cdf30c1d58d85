package org.ftlab.harness.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ConfigIdTest {
    @Test
    void aRunThatVariesNoInfrastructureKeepsTheNamesOfEarlierRuns() {
        assertEquals("c04-t20-r512-rep2", new ConfigId(4, 20, 0, 512, 2).fileStem());
        assertEquals("c04-rate12.5-rorig", new ConfigId(4, 0, 12.5, -1, 0).fileStem());
        assertEquals(new ConfigId(4, 20, 0, 512, 2), ConfigId.parse("c04-t20-r512-rep2"));
    }

    @Test
    void infrastructureLevelsAreNamedInTheBlockAndReadBack() {
        ConfigId id = new ConfigId(1, 0, 0, -1, "active", 3, "rest", 2);
        assertEquals("c01-t00-rorig-sactive-n3-prest-rep2", id.fileStem());
        assertEquals("c01-t00-rorig-sactive-n3-prest", id.config());
        assertEquals(id, ConfigId.parse(id.fileStem()));
        ConfigId degreeOnly = ConfigId.parse("c10-t40-r256-n2");
        assertEquals(2, degreeOnly.replicas());
        assertNull(degreeOnly.strategy());
        assertNull(degreeOnly.platform());
    }

    @Test
    void aPlugInStrategyIsWrittenWithoutTheColonAFileNameCannotHaveEverywhere() {
        ConfigId id = new ConfigId(4, 0, 0, -1, "class:org.example.Mine", 0, null, 1);
        assertEquals("c04-t00-rorig-sclass.org.example.Mine-rep1", id.fileStem());
        assertEquals("class:org.example.Mine", ConfigId.parse(id.fileStem()).strategy());
    }

    @Test
    void aStrategyWhoseNameHoldsAHyphenIsReadBackWholeBeforeTheOtherLevels() {
        for (ConfigId id : new ConfigId[] {new ConfigId(4, 0, 0, -1, "wildfly-cluster", 0, null, 0),
                new ConfigId(4, 0, 0, -1, "wildfly-cluster", 3, "ejb", 2),
                new ConfigId(1, 5, 0, 1024, "wildfly-cluster", 0, null, 12)}) {
            assertEquals(id, ConfigId.parse(id.fileStem()), id.fileStem());
        }
        assertEquals("c04-t00-rorig-swildfly-cluster-rep2",
                new ConfigId(4, 0, 0, -1, "wildfly-cluster", 0, null, 2).fileStem());
    }

    @Test
    void aNameThatIsNotOneOfOursIsNotParsed() {
        assertNull(ConfigId.parse("c04-t20-r512-x"));
        assertNull(ConfigId.parse("c04-t20-r512-n-rep2"));
        assertNull(ConfigId.parse("summary"));
    }
}
