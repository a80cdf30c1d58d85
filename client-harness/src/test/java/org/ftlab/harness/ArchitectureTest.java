package org.ftlab.harness;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * docs/architecture.md's layer table, held against the code of every module: one rule per line, so that the document
 * and the code cannot drift apart. Each line names a module, a package of it and the packages of ftlab it may use; a
 * class may use its own package, the packages its line names, and anything outside ftlab. Every package of the code
 * must have its line, in the module the line names. This module is built last, so every module's classes are there
 * to read ({@code target/classes}).
 */
class ArchitectureTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String PREFIX = "org.ftlab.";
    private static List<Layer> layers;
    private static JavaClasses code;

    /** One line of the table: a package of a module and the packages it may use. */
    record Layer(String module, String pkg, Set<String> uses) {
    }

    @BeforeAll
    static void readTheTableAndTheCode() throws IOException {
        layers = table(Files.readString(ROOT.resolve("docs/architecture.md")));
        List<Path> modules = new ArrayList<>();
        for (Layer l : layers) {
            Path classes = ROOT.resolve(l.module()).resolve("target/classes");
            if (!modules.contains(classes)) {
                modules.add(classes);
            }
        }
        code = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPaths(modules);
    }

    @Test
    void everyPackageOfTheCodeHasItsLineInTheModuleTheLineNames() {
        Map<String, String> documented = new TreeMap<>();
        layers.forEach(l -> documented.put(l.pkg(), l.module()));
        Map<String, String> found = new TreeMap<>();
        for (JavaClass c : code) {
            found.put(pkg(c), module(c));
        }
        assertEquals(documented, found, "docs/architecture.md's layer table (package -> module) against the code");
    }

    @TestFactory
    Stream<DynamicTest> everyPackageUsesOnlyWhatItsLineAllows() {
        assertFalse(layers.isEmpty(), "docs/architecture.md has no layer table");
        return layers.stream().map(l -> DynamicTest.dynamicTest(l.pkg() + " uses only " + l.uses(), () -> {
            List<String> allowed = new ArrayList<>();
            allowed.add(PREFIX + l.pkg());
            allowed.add(PREFIX + l.pkg() + ".jmh_generated");
            l.uses().forEach(u -> allowed.add(PREFIX + u));
            classes().that().resideInAPackage(PREFIX + l.pkg()).or().resideInAPackage(PREFIX + l.pkg() + ".jmh_generated")
                    .should().onlyDependOnClassesThat(resideOutsideOfPackage("org.ftlab..")
                            .or(resideInAnyPackage(allowed.toArray(String[]::new))))
                    .allowEmptyShould(false).check(code);
        }));
    }

    /** The lines of the fenced {@code layers} block: {@code module package -> used, used} ({@code -}: none). */
    static List<Layer> table(String markdown) {
        List<Layer> out = new ArrayList<>();
        boolean in = false;
        for (String line : markdown.split("\n")) {
            if (line.strip().equals("```layers")) {
                in = true;
            } else if (in && line.strip().equals("```")) {
                break;
            } else if (in && !line.isBlank() && !line.strip().startsWith("#")) {
                String[] sides = line.split("─▶|->", 2);
                String[] left = sides[0].trim().split("\\s+");
                Set<String> uses = new TreeSet<>();
                for (String u : sides[1].split("[,\\s]+")) {
                    if (!u.isBlank() && !u.equals("-")) {
                        uses.add(u);
                    }
                }
                out.add(new Layer(left[0], left[1], uses));
            }
        }
        return out;
    }

    private static String pkg(JavaClass c) {
        return c.getPackageName().substring(PREFIX.length()).replaceFirst("\\.jmh_generated$", "");
    }

    private static String module(JavaClass c) {
        String uri = c.getSource().orElseThrow().getUri().toString();
        Path classes = Path.of(uri.substring("file:".length(), uri.indexOf("/target/classes/") + 1));
        return ROOT.relativize(classes).toString().replaceAll("/$", "");
    }
}
