package org.ftlab.harness.it;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One lab of WildFly's cluster kept running by {@code scripts/ftlab lab --wildfly-cluster --spares 1} (the
 * high-availability servers, one JGroups cluster; its spare waits suspended) for the classes that run the cluster
 * strategy ({@code ftlab grid --lab DIR}): one boot instead of one per class; stopped as Ctrl-C stops it when the test
 * JVM's root context closes, leaving nothing behind ({@link KeptLab}).
 */
public final class WildFlyClusterLab implements BeforeAllCallback, ExtensionContext.Store.CloseableResource {
    private static KeptLab lab;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (WildFlyClusterLab.class) {
            if (lab == null) {
                lab = KeptLab.start("wildfly-cluster-lab-", "--wildfly-cluster", "--spares", "1");
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL).put(WildFlyClusterLab.class.getName(),
                        this);
            }
        }
    }

    /** The lab's directory, for {@code --lab}. */
    static Path dir() {
        return lab.dir();
    }

    @Override
    public void close() throws Exception {
        synchronized (WildFlyClusterLab.class) {
            if (lab != null) {
                KeptLab stopping = lab;
                lab = null;
                stopping.stop();
            }
        }
    }
}
