package org.ftlab.rm.consensus;

import java.util.List;
import java.util.function.Function;

/** A state kept by one member alone: it leads for ever, in term 1, and applies each command at once. */
public final class LocalState<S> implements ReplicatedState<S> {
    private final String member;
    private final S state;

    public LocalState(String member, S state) {
        this.member = member;
        this.state = state;
    }

    @Override
    public synchronized <R> R apply(Command<S, R> command) {
        return command.applyTo(state);
    }

    @Override
    public synchronized <R> R read(Function<S, R> query) {
        return query.apply(state);
    }

    @Override
    public String member() {
        return member;
    }

    @Override
    public List<String> members() {
        return List.of(member);
    }

    @Override
    public String leader() {
        return member;
    }

    @Override
    public boolean leads() {
        return true;
    }

    @Override
    public long term() {
        return 1;
    }

    @Override
    public void close() {
    }
}
