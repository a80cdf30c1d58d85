package org.ftlab.harness.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.ftlab.os.AtomicFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ftlab new-strategy DIR}: a Maven project for a fail-over strategy of one's own, which compiles as written,
 * with a test on simulated replicas (docs/labs/plugins.md).
 */
@Command(name = "new-strategy", mixinStandardHelpOptions = true,
        description = {"Writes a Maven project for a fail-over strategy of your own under DIR: the strategy (it "
                + "starts as the pre-connected client), a test on simulated replicas, and a README. Build it with "
                + "'mvn -q package' in DIR, then run it with 'ftlab grid --strategy class:NAME --plugin-dir "
                + "DIR/target/classes'."})
public final class NewStrategyCommand implements Callable<Integer> {
    private static final Pattern CLASS_NAME = Pattern.compile("([a-z_][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_]*");

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "A new (or empty) directory.")
    Path dir;

    @Option(names = "--class", paramLabel = "NAME", defaultValue = "student.MyStrategy",
            description = "The strategy's class, with its package (default: ${DEFAULT-VALUE}).")
    String className;

    @Override
    public Integer call() throws IOException {
        if (!CLASS_NAME.matcher(className).matches()) {
            throw new IllegalArgumentException("--class must be a class name with a lower-case package, e.g. "
                    + "student.MyStrategy; was '" + className + "'");
        }
        Path target = dir.toAbsolutePath().normalize();
        if (Files.exists(target) && (!Files.isDirectory(target) || hasFiles(target))) {
            throw new IllegalArgumentException(dir + " exists and is not an empty directory; choose a new one");
        }
        int dot = className.lastIndexOf('.');
        String pkg = className.substring(0, dot);
        String simple = className.substring(dot + 1);
        String artifact = target.getFileName().toString().toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9._-]", "-");
        Path sources = target.resolve("src/main/java").resolve(pkg.replace('.', '/'));
        Path tests = target.resolve("src/test/java").resolve(pkg.replace('.', '/'));
        Files.createDirectories(sources);
        Files.createDirectories(tests);
        String version = ftlabVersion();
        write("pom.xml.txt", target.resolve("pom.xml"), pkg, simple, artifact, version, target);
        write("Strategy.java.txt", sources.resolve(simple + ".java"), pkg, simple, artifact, version, target);
        write("StrategyTest.java.txt", tests.resolve(simple + "Test.java"), pkg, simple, artifact, version, target);
        write("README.md.txt", target.resolve("README.md"), pkg, simple, artifact, version, target);
        spec.commandLine().getOut().printf("ftlab new-strategy: wrote %s (class %s)%n  build and test: cd %s && mvn "
                + "-q package%n  run:            scripts/ftlab grid --strategy class:%s --plugin-dir %s ...%n",
                target, className, target, className, target.resolve("target/classes"));
        return 0;
    }

    private static boolean hasFiles(Path d) throws IOException {
        try (var s = Files.list(d)) {
            return s.findAny().isPresent();
        }
    }

    private static void write(String template, Path to, String pkg, String simple, String artifact, String version,
            Path dir) throws IOException {
        String text;
        try (InputStream in = NewStrategyCommand.class.getResourceAsStream("template/" + template)) {
            if (in == null) {
                throw new IllegalStateException("the build left out the strategy template " + template
                        + ": rebuild with mvn install");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        text = text.replace("@PACKAGE@", pkg).replace("@CLASS@", simple).replace("@ARTIFACT@", artifact)
                .replace("@FTLAB_VERSION@", version).replace("@DIR@", dir.toString());
        AtomicFiles.write(to, text);
    }

    /** ftlab's version, which the template's pom depends on (installed in the local Maven repository by the build). */
    static String ftlabVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = NewStrategyCommand.class.getResourceAsStream("/ftlab-versions.properties")) {
            if (in == null) {
                throw new IllegalStateException("the build left out ftlab-versions.properties: rebuild with mvn "
                        + "install");
            }
            p.load(in);
        }
        return p.getProperty("ftlab");
    }
}
