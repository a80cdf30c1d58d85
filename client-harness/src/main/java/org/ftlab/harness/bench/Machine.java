package org.ftlab.harness.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine a bench ran on, bench.json's {@code machine}: its figures are only comparable with others of the same.
 *
 * @param memoryGib the machine's memory, GiB to one decimal; -1 where {@code /proc/meminfo} does not tell (not Linux)
 * @param maxHeapMib the most heap this JVM may use, MiB
 */
public record Machine(int cpus, double memoryGib, String os, String java, long maxHeapMib) {

    /** The machine this JVM runs on. */
    public static Machine here() {
        return new Machine(Runtime.getRuntime().availableProcessors(), totalMemoryGib(),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                Runtime.getRuntime().maxMemory() >> 20);
    }

    /** Its line of the printed table. */
    public String line() {
        return String.format(Locale.ROOT, "machine: %d CPUs, %.1f GiB, %s, %s%n", cpus, memoryGib, os, java);
    }

    private static double totalMemoryGib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Math.round(Long.parseLong(line.replaceAll("\\D", "")) / 1048576.0 * 10) / 10.0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux
        }
        return -1;
    }
}
