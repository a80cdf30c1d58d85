package org.ftlab.harness.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A bench's suites, in order: how {@code --suites} chooses among them, their default list and their help. */
class SuitesTest {
    private final Suites suites = new Suites(List.of(suite("a", "measures a.", true), suite("b", "", true),
            suite("c", "measures c.", false)));

    @Test
    void theDefaultListIsTheSuitesThatRunByDefaultInOrder() {
        assertEquals(List.of("a", "b"), suites.defaultNames());
    }

    @Test
    void theChosenSuitesComeInTheirOwnOrderWhateverTheOrderOfTheNames() {
        assertEquals(List.of("a", "c"), suites.chosen(List.of("c", "a")).stream().map(Suite::name).toList());
    }

    @Test
    void anUnknownNameIsRefusedInOneLineThatNamesEveryChoice() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> suites.chosen(List.of("a", "z")));
        assertEquals("--suites: unknown suite 'z'; choose from a, b, c", e.getMessage());
    }

    @Test
    void theHelpIsTheHeaderThenAParagraphPerDescribedSuiteThoseNotInTheDefaultListSayingSo() {
        assertEquals(List.of("Benchmarks.", "a: measures a.", "c (not in the default list): measures c."),
                suites.help("Benchmarks."));
    }

    private static Suite suite(String name, String description, boolean byDefault) {
        return new Suite() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return description;
            }

            @Override
            public boolean byDefault() {
                return byDefault;
            }

            @Override
            public boolean needsLab() {
                return false;
            }

            @Override
            public void run(SuiteRun run) {
            }
        };
    }
}
