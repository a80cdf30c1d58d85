package org.ftlab.harness.it;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One lab kept running by {@code scripts/ftlab lab} (2 replicas, 1 spare, the default knobs, its JVMs recording events
 * although the suite's labs record none by default) for every grid of the test run that can share it
 * ({@code ftlab grid --lab DIR}): booted once, when a class that uses it starts, and stopped as Ctrl-C stops it when
 * the test JVM's root context closes, leaving nothing behind ({@link KeptLab}).
 */
public final class RunningLab implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {
    private static KeptLab lab;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (RunningLab.class) {
            if (lab == null) {
                lab = KeptLab.start("running-lab-", "--observe", "on");
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(RunningLab.class.getName(), this);
            }
        }
    }

    /** The running lab's directory, for {@code --lab}. */
    static Path dir() {
        return lab.dir();
    }

    @Override
    public void close() throws Exception {
        synchronized (RunningLab.class) {
            if (lab != null) {
                KeptLab stopping = lab;
                lab = null;
                stopping.stop();
            }
        }
    }
}
