package org.ftlab.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

    @Test
    void writersOfOneFileAtOnceEachRenameAWholeFileAndLeaveNoTemporaryOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("settings.jfc");
        int writers = 8;
        ExecutorService threads = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < 50; round++) {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> done = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    String text = "writer " + w + "\n".repeat(1000);
                    done.add(threads.submit(() -> {
                        go.await();
                        AtomicFiles.write(file, text);
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> f : done) {
                    f.get(); // throws if a writer's rename found its temporary file gone
                }
                String text = Files.readString(file);
                assertTrue(text.startsWith("writer ") && text.length() == "writer 0".length() + 1000, "whole");
            }
        } finally {
            threads.shutdownNow();
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(file), left.toList(), "no temporary file left");
        }
    }
}
