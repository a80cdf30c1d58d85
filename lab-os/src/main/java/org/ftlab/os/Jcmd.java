package org.ftlab.os;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A diagnostic command ({@code jcmd}) run in another JVM of this machine: {@code GC.run}, {@code JFR.dump …}. The
 * command goes through the attach mechanism from this JVM, without starting a {@code jcmd} process: a new JVM would
 * burn a few hundred ms of CPU on the lab's two cores at the very moment it is meant to measure. That needs
 * {@code --add-opens jdk.attach/sun.tools.attach=ALL-UNNAMED} ({@link #JVM_OPTION}) on this JVM; without it, the
 * JDK's {@code jcmd} tool runs the command instead.
 */
public final class Jcmd {
    /** The option a JVM that runs commands needs (the manager's has it). */
    public static final String JVM_OPTION = "--add-opens=jdk.attach/sun.tools.attach=ALL-UNNAMED";

    private Jcmd() {
    }

    /**
     * Runs {@code command} (e.g. {@code GC.run}) in JVM {@code pid} and returns its output; returns when the command
     * has finished there.
     *
     * @throws IOException if the JVM is gone, refuses to attach, or the command failed (its message says why)
     */
    public static String run(long pid, String command) throws IOException {
        Method execute = executeMethod();
        if (execute == null) {
            return runTool(pid, command);
        }
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException | IOException e) {
            throw new IOException("cannot attach to JVM " + pid + ": " + e.getMessage(), e);
        }
        try (InputStream in = (InputStream) execute.invoke(vm, command)) {
            String out = new String(readToEnd(in), StandardCharsets.UTF_8);
            checkOutput(pid, command, out);
            return out;
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw cause instanceof IOException io ? io
                    : new IOException("jcmd " + command + " in JVM " + pid + ": " + cause, cause);
        } catch (IllegalAccessException e) {
            return runTool(pid, command);
        } finally {
            vm.detach();
        }
    }

    /**
     * Removes the attach socket a JVM this one attached to left behind ({@code /tmp/.java_pid<pid>}): a JVM killed
     * with SIGKILL cannot remove its own. Does nothing while {@code pid} still runs.
     */
    public static void forget(long pid) {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return;
        }
        try {
            Files.deleteIfExists(Path.of("/tmp", ".java_pid" + pid));
        } catch (IOException e) {
            // not ours to remove, or gone already
        }
    }

    /** The JDK's attach method that runs a diagnostic command, or null when this JVM may not call it. */
    private static Method executeMethod() {
        try {
            Method m = Class.forName("sun.tools.attach.HotSpotVirtualMachine").getDeclaredMethod("executeJCmd",
                    String.class);
            m.setAccessible(true);
            return m;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static String runTool(long pid, String command) throws IOException {
        Path tool = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(tool)) {
            throw new IOException("cannot run '" + command + "' in JVM " + pid + ": this JVM may not attach ("
                    + JVM_OPTION + ") and " + tool + " is missing");
        }
        List<String> argv = new ArrayList<>(List.of(tool.toString(), Long.toString(pid)));
        argv.addAll(List.of(command.split(" ")));
        String out = ProcessTools.run(argv, null);
        checkOutput(pid, command, out);
        return out;
    }

    /**
     * Everything the command wrote. Read until the stream ends: the attach stream can return fewer bytes than asked
     * for, and {@code readAllBytes} stopped after its first 4,096 (a long output, such as {@code Compiler.codelist},
     * was cut).
     */
    private static byte[] readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toByteArray();
    }

    /** A diagnostic command reports its own failure in its output, not in an exception. */
    private static void checkOutput(long pid, String command, String out) throws IOException {
        for (String line : out.split("\n")) {
            if (line.startsWith("java.lang.") && line.contains("Exception") || line.startsWith("Could not ")
                    || line.startsWith("Unknown diagnostic command")) {
                throw new IOException("jcmd " + command.split(" ")[0] + " in JVM " + pid + ": " + line.strip());
            }
        }
    }
}
