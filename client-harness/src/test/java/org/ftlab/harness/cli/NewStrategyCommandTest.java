package org.ftlab.harness.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ftlab new-strategy}: the template compiles as written and its own tests pass on simulated replicas. */
class NewStrategyCommandTest {
    @TempDir
    Path tmp;

    private static int run(StringWriter err, String... args) {
        return FtlabCommand.execute(args, new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    }

    @Test
    void theTemplateCompilesAndEveryTestItShipsWithPasses() throws Exception {
        Path dir = tmp.resolve("mine");
        assertEquals(0, run(new StringWriter(), "new-strategy", dir.toString(), "--class", "edu.course.Mine"));
        Path main = dir.resolve("src/main/java/edu/course/Mine.java");
        Path test = dir.resolve("src/test/java/edu/course/MineTest.java");
        assertTrue(Files.isRegularFile(dir.resolve("pom.xml")) && Files.isRegularFile(dir.resolve("README.md")));
        assertTrue(Files.readString(dir.resolve("pom.xml")).contains("<artifactId>client-harness</artifactId>"));
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), main.toString(), test.toString());
        assertEquals(0, rc, "the template compiles");
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            Class<?> c = loader.loadClass("edu.course.MineTest");
            List<String> ran = new ArrayList<>();
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(Test.class)) {
                    var ctor = c.getDeclaredConstructor();
                    ctor.setAccessible(true);
                    m.setAccessible(true);
                    m.invoke(ctor.newInstance()); // an assertion failure fails this test
                    ran.add(m.getName());
                }
            }
            assertEquals(3, ran.size(), "the template's tests: " + ran);
        }
    }

    @Test
    void aDirectoryWithFilesOrABadClassNameIsRefusedInOneLine() throws Exception {
        Path used = Files.createDirectories(tmp.resolve("used"));
        Files.writeString(used.resolve("x"), "x");
        StringWriter err = new StringWriter();
        assertEquals(1, run(err, "new-strategy", used.toString()));
        assertTrue(err.toString().contains("is not an empty directory"), err.toString());
        StringWriter err2 = new StringWriter();
        assertEquals(1, run(err2, "new-strategy", tmp.resolve("new").toString(), "--class", "NoPackage"));
        assertTrue(err2.toString().contains("--class must be a class name with a lower-case package"),
                err2.toString());
        assertEquals(1, err2.toString().lines().count());
        try (Stream<Path> s = Files.list(tmp)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().equals("new")), "nothing written");
        }
    }
}
