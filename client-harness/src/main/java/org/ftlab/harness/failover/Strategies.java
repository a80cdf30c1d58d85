package org.ftlab.harness.failover;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** The fail-over strategies a client can run, by the name users give on the command line and manifests record. */
public final class Strategies {
    private Strategies() {
    }

    /**
     * A strategy: its name, one line on what it does, whether it needs connections to every serving replica kept
     * ready (and the view followed), and how to make one for a client.
     */
    public record Kind(String name, String summary, boolean keepsReplicasConnected,
            Function<ReplicaSet, FailoverStrategy> factory) {
    }

    private static final Map<String, Kind> KINDS = new LinkedHashMap<>();
    /** The baseline strategy's name: WildFly's own clustering ({@link WildFlyClusterStrategy}). */
    public static final String WILDFLY_CLUSTER = WildFlyClusterStrategy.NAME;

    static {
        register(new Kind("reactive", "on a failure, report it, wait for the new primary in the view, connect, "
                + "retry (seed 004 phase III)", false, ReactiveStrategy::new));
        register(new Kind("preconnected", "keep connections to the backups; on a failure switch to the next one "
                + "at once and retry (seed 004 phase IV)", true, PreconnectedStrategy::new));
        register(new Kind("hedged", "send to the primary; if it has not answered after the hedge delay, send the "
                + "same request to the next backup and take the first answer", true, HedgedStrategy::new));
        register(new Kind("active", "send every request to every serving replica and take the first answer "
                + "(active replication; the request log keeps it once)", true, ActiveStrategy::new));
        register(new Kind(WildFlyClusterStrategy.NAME, "WildFly's own clustering, the baseline: one cluster-aware EJB "
                + "proxy; the EJB client picks a member per call and resends what it could not send; a call lost "
                + "in a crash or hang is sent again by the application (needs a lab with --wildfly-cluster)", false,
                WildFlyClusterStrategy::new));
    }

    private static void register(Kind kind) {
        KINDS.put(kind.name(), kind);
    }

    /** Every strategy name, in the order the help lists them. */
    public static List<String> names() {
        return List.copyOf(KINDS.keySet());
    }

    /**
     * ftlab's own strategies, which run on every lab: every name but the baseline {@value #WILDFLY_CLUSTER}, which
     * needs a lab of WildFly's cluster.
     */
    public static List<String> ownNames() {
        return KINDS.keySet().stream().filter(n -> !n.equals(WILDFLY_CLUSTER)).toList();
    }

    /**
     * The strategy called {@code name}: a built-in one, or a plug-in ({@code class:NAME}) loaded from
     * {@code pluginLocation} (a directory of classes or a jar; null without a plug-in).
     *
     * @param giveUp the clients' bound on one request's fail-overs (a plug-in call running well past it has hung)
     */
    public static Kind resolve(String name, Path pluginLocation, Duration giveUp) {
        if (PluginStrategies.isPlugin(name)) {
            return PluginStrategies.load(name, pluginLocation, giveUp);
        }
        if (pluginLocation != null) {
            throw new IllegalArgumentException("--plugin-dir goes with --strategy class:NAME (a plug-in strategy); "
                    + "'" + name + "' is built in");
        }
        return named(name);
    }

    /** The built-in strategy called {@code name} (case and blanks ignored); the message lists the valid ones. */
    public static Kind named(String name) {
        Kind k = name == null ? null : KINDS.get(name.trim().toLowerCase(Locale.ROOT));
        if (k == null) {
            throw new IllegalArgumentException("fail-over strategy must be one of " + String.join(", ", names())
                    + " or class:NAME (a plug-in); was '" + name + "'");
        }
        return k;
    }
}
