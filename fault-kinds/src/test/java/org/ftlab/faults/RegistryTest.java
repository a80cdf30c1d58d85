package org.ftlab.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.ftlab.rm.api.FaultKind;
import org.junit.jupiter.api.Test;

/** The one registration of the kinds: {@code META-INF/services/org.ftlab.rm.api.FaultKind}. */
class RegistryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The page that lists every kind: from this module's directory, where the tests run. */
    private static final Path FAULTS_MD = Path.of("..", "docs", "faults.md");

    @Test
    void theRegistrysOrderIsTheDocumentedOrder() throws Exception {
        // a seeded random schedule draws from this order: the same seed must keep drawing the same faults
        assertEquals("crash, hang, freeze, slow, link-down, partition, flaky, bandwidth, db-hang, db-slow, gc, "
                + "cpu-hog, db-lock, db-backup, db-crash, rm-crash, rm-hang, fd-crash, rm-partition, tcp-reset, one-way",
                FaultKind.names());
        List<String> documented = Files.readAllLines(FAULTS_MD).stream().dropWhile(l -> !l.startsWith("| kind |"))
                .skip(2).takeWhile(l -> l.startsWith("| `")).map(l -> l.substring(3, l.indexOf('`', 3))).toList();
        assertEquals(FaultKind.all().stream().map(FaultKind::wireName).toList(), documented, "docs/faults.md's table");
    }

    @Test
    void everyRegisteredKindRoundTripsItsWireName() throws Exception {
        for (FaultKind k : FaultKind.all()) {
            assertSame(k, FaultKind.parse(k.wireName()), k.wireName());
            assertEquals("\"" + k.wireName() + "\"", JSON.writeValueAsString(k));
            assertSame(k, JSON.readValue(JSON.writeValueAsString(k), FaultKind.class), k.wireName());
        }
    }

    @Test
    void everyKindClassIsRegisteredAndEveryRegisteredKindIsMadeByTheLab() {
        Set<String> classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.ftlab.faults").stream()
                .filter(c -> c.isAssignableTo(LabFaultKind.class) && !c.getModifiers().contains(JavaModifier.ABSTRACT))
                .map(JavaClass::getName).collect(Collectors.toSet());
        Set<String> registered = FaultKind.all().stream().map(k -> LabFaultKind.of(k).getClass().getName())
                .collect(Collectors.toSet());
        assertEquals(classes, registered);
    }

    @Test
    void twoInstancesOfAKindAreEqualAndTheRegistryHoldsOne() {
        FaultKind crash = FaultKind.parse("crash");
        assertEquals(crash, new Crash());
        assertEquals(crash.hashCode(), new Crash().hashCode());
        assertSame(crash, FaultKind.all().get(0));
    }
}
