package org.ftlab.stateful;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.ftlab.tart.DeterminismFault;

/** An input log in memory, for tests: refuses duplicates and, once fenced, everything. */
final class MemoryLog implements InputLog {
    private final List<LoggedInput> inputs = new ArrayList<>();
    private final List<StatefulNetwork.GatewayFault> faults = new ArrayList<>();
    private final Set<String> keys = new HashSet<>();
    private boolean fenced;

    @Override
    public synchronized void append(LoggedInput input) throws Fenced, AlreadyLogged {
        if (fenced) {
            throw new Fenced("epoch 2 owns the log");
        }
        if (!keys.add(input.input().key())) {
            throw new AlreadyLogged(input.input().key());
        }
        inputs.add(input);
    }

    @Override
    public synchronized void appendFault(int gateway, DeterminismFault fault) throws Fenced {
        if (fenced) {
            throw new Fenced("epoch 2 owns the log");
        }
        faults.add(new StatefulNetwork.GatewayFault(gateway, fault));
    }

    synchronized void fence() {
        fenced = true;
    }

    synchronized List<LoggedInput> inputs() {
        return List.copyOf(inputs);
    }

    synchronized List<StatefulNetwork.GatewayFault> faults() {
        return List.copyOf(faults);
    }
}
