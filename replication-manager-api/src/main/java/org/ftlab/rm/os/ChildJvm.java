package org.ftlab.os;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a child JVM that runs one of ftlab's processes (the manager, the Fault Detector, the harness
 * on another host): this JVM's own {@code java} and class path, so parent and child run the same code. Its readiness
 * is the child's to report ({@link ProcessTools#awaitOutput}, or a file it writes once ready).
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** {@code java OPTIONS -cp <this class path> MAIN_CLASS}, as a list to which the caller appends its arguments. */
    public static List<String> command(String mainClass, String... jvmOptions) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        return cmd;
    }
}
