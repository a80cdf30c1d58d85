package org.ftlab.harness.grid;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.ftlab.harness.failover.ClientTuning;
import org.ftlab.harness.failover.PluginFailure;
import org.ftlab.harness.failover.Shadow;
import org.ftlab.harness.failover.Strategies;
import org.ftlab.harness.history.History;
import org.ftlab.harness.workload.Workload;
import org.ftlab.rm.api.Platform;

/**
 * The run's clients, opened once for the whole run: each level of the strategy and platform factors has its own
 * (ids, fail-over clients, connections), as many as the largest block has clients, and a block runs on its level's.
 */
final class RunClients implements AutoCloseable {
    /** The strategy of each level the blocks use, in the plan's order (one when the run does not vary it). */
    private final Map<String, Strategies.Kind> strategies;
    /** The middleware platforms the blocks use, in the plan's order (one when the run does not vary it). */
    private final List<Platform> platforms;
    private final Map<Level, List<GridClient>> byLevel = new LinkedHashMap<>();
    private final List<GridClient> all = new ArrayList<>();

    /** Clients of one strategy through one platform: each level of those factors has its own. */
    private record Level(String strategy, Platform platform) {
    }

    RunClients(Map<String, Strategies.Kind> strategies, List<Platform> platforms) {
        this.strategies = strategies;
        this.platforms = platforms;
    }

    /**
     * Opens {@code perLevel} clients of every level, their ids tagged with {@code runTag} (and the level's number
     * when there are several), their operations recorded in {@code history}. A plug-in whose constructor (or first
     * requests) failed stops the run: nothing is measured.
     */
    void open(GridLab lab, Workload workload, ClientTuning tuning, int perLevel, String runTag, RunControl control,
            History history) throws Exception {
        try {
            int level = 0;
            for (Map.Entry<String, Strategies.Kind> s : strategies.entrySet()) {
                for (Platform platform : platforms) {
                    level++;
                    List<GridClient> own = new ArrayList<>();
                    byLevel.put(new Level(s.getKey(), platform), own);
                    for (int i = 0; i < perLevel; i++) {
                        GridClient c = GridClient.open(lab, workload, s.getValue(), tuning, platform,
                                strategies.size() * platforms.size() == 1
                                        ? String.format(Locale.ROOT, "g%s-%02d", runTag, i + 1)
                                        : String.format(Locale.ROOT, "g%s-s%d-%02d", runTag, level, i + 1),
                                history);
                        own.add(c);
                        all.add(c);
                    }
                }
            }
        } catch (PluginFailure e) {
            control.pluginFailed(e);
        }
    }

    /** The clients of {@code block}'s level: its strategy and platform, or the run's one of each. */
    List<GridClient> of(GridPlan.Block block) {
        GridConfig c = block.config();
        return byLevel.get(new Level(c.strategy() != null ? c.strategy() : strategies.keySet().iterator().next(),
                c.platform() != null ? Platform.parse(c.platform()) : platforms.get(0)));
    }

    /** Each level's clients, in the levels' order. */
    List<List<GridClient>> levels() {
        return List.copyOf(byLevel.values());
    }

    /** Every client of the run, in the order opened. */
    List<GridClient> all() {
        return all;
    }

    /** What every client's shadow traffic came to. */
    Shadow.Counts shadowCounts() {
        return all.stream().map(c -> c.session().client.shadowCounts()).reduce(new Shadow.Counts(0, 0, 0, 0),
                Shadow.Counts::plus);
    }

    @Override
    public void close() {
        all.forEach(GridClient::close);
    }
}
