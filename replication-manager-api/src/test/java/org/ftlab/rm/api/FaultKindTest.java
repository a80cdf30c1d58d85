package org.ftlab.rm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract's registry of kinds, on the stand-in kinds of {@link TestKinds}. */
class FaultKindTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theKindsAreTheRegisteredOnesInTheRegistrationsOrder() {
        assertEquals(List.of("dim", "cut", "blip"), FaultKind.all().stream().map(FaultKind::wireName).toList());
        assertEquals("dim, cut, blip", FaultKind.names());
    }

    @Test
    void aKindIsFoundByItsWireNameInAnyCaseAndSpacingAndThereIsOneOfEach() {
        for (FaultKind k : FaultKind.all()) {
            assertSame(k, FaultKind.parse(k.wireName()));
            assertSame(k, FaultKind.parse(" " + k.wireName().toUpperCase() + " "));
        }
    }

    @Test
    void anUnknownNameIsAnErrorThatNamesEveryKind() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FaultKind.parse("melt"));
        assertEquals("unknown fault kind 'melt'; use one of dim, cut, blip", e.getMessage());
    }

    @Test
    void aKindIsItsWireNameOnTheWire() throws Exception {
        for (FaultKind k : FaultKind.all()) {
            String wire = JSON.writeValueAsString(k);
            assertEquals("\"" + k.wireName() + "\"", wire);
            assertSame(k, JSON.readValue(wire, FaultKind.class));
        }
    }

    @Test
    void anAmountIsTheDefaultForZeroAndOtherwiseWithinItsBounds() {
        FaultKind dim = FaultKind.parse("dim");
        assertEquals(10, dim.checkAmount(0));
        assertEquals(5, dim.checkAmount(5));
        assertEquals("dim amount must be 1 to 100 percent, was 150", assertThrows(IllegalArgumentException.class,
                () -> dim.checkAmount(150)).getMessage());
        assertEquals("dim amount must be 1 to 100 percent, was 0.5", assertThrows(IllegalArgumentException.class,
                () -> dim.checkAmount(0.5)).getMessage());
        FaultKind blip = FaultKind.parse("blip");
        assertEquals(0, blip.checkAmount(0));
        assertEquals("blip takes no amount, was 3.0", assertThrows(IllegalArgumentException.class,
                () -> blip.checkAmount(3)).getMessage());
    }

    @Test
    void anAmountHasAUnitExactlyWhenARandomScheduleHasLevelsToDrawItFrom() {
        assertThrows(IllegalArgumentException.class, () -> FaultAmount.of("percent", 10, 1, 100));
        assertThrows(IllegalArgumentException.class, () -> new FaultAmount(null, 0, 0, 0, List.of(1.0)));
        assertEquals(List.of(5.0, 10.0), FaultKind.parse("dim").amountLevels());
        assertEquals(List.of(), FaultKind.parse("blip").amountLevels());
    }
}
