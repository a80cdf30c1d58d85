package org.ftlab.rm.api;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * The registered fault kinds, loaded once from {@code META-INF/services/org.ftlab.rm.api.FaultKind} on this class's
 * class path (the kinds are not the contract's: module {@code fault-kinds} registers them), in the file's order.
 */
final class FaultKindRegistry {
    static final List<FaultKind> KINDS = load();

    private FaultKindRegistry() {
    }

    private static List<FaultKind> load() {
        List<FaultKind> kinds = ServiceLoader.load(FaultKind.class, FaultKind.class.getClassLoader()).stream()
                .map(ServiceLoader.Provider::get).toList();
        Set<String> names = new HashSet<>();
        for (FaultKind k : kinds) {
            if (!names.add(k.wireName().toLowerCase(Locale.ROOT))) {
                throw new IllegalStateException("two fault kinds are registered as '" + k.wireName() + "'");
            }
        }
        return kinds;
    }
}
