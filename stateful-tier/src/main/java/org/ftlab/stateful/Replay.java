package org.ftlab.stateful;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ftlab.tart.EstimatorHistory;
import org.ftlab.tart.ExternalSender;
import org.ftlab.tart.Message;

/**
 * The tier replayed offline, with the same component code and no threads, clocks or waiting: each gateway's logged
 * inputs in stamp order give its messages the virtual times the live gateway gave them (its estimator changes
 * applied at their logged times); the engine handles them in virtual-time order. What deterministic scheduling
 * promises is that this is what the live tier did: the replay oracle holds the live replies and states to it.
 */
public final class Replay {
    private Replay() {
    }

    /** One message as the replay handled it. */
    public record Handled(String key, int gateway, long stamp, long vt, Output output) {
    }

    /** The book after the replay, and every message in the order handled. */
    public record Result(AuctionBook book, List<Handled> handled) {
        /** Each input's reply, by key. */
        public Map<String, Output> replies() {
            Map<String, Output> m = new LinkedHashMap<>();
            for (Handled h : handled) {
                m.putIfAbsent(h.key(), h.output());
            }
            return m;
        }
    }

    /**
     * Replays from {@code from} (a checkpoint; {@link Checkpoint#empty} for the whole run) the inputs logged after it,
     * handling at most {@code limit} messages in all (counting those the checkpoint had handled; Long.MAX_VALUE for
     * every one). Consumes {@code from}: its book becomes the result's.
     */
    public static Result run(TierSettings settings, Checkpoint from, List<LoggedInput> logged,
            List<StatefulNetwork.GatewayFault> faults, long limit) {
        return run(settings, from, logged, faults, limit, (messages, book) -> { });
    }

    /** What a replay shows after each message it handles: the messages handled in all, and the book then. */
    @FunctionalInterface
    public interface Observer {
        void handled(long messages, AuctionBook book);
    }

    /**
     * As above, showing {@code observer} the book after each message (to hold every checkpoint to the one pass that
     * reaches its count, instead of a replay per checkpoint).
     */
    public static Result run(TierSettings settings, Checkpoint from, List<LoggedInput> logged,
            List<StatefulNetwork.GatewayFault> faults, long limit, Observer observer) {
        int n = settings.gateways();
        ExternalSender[] senders = new ExternalSender[n];
        for (int g = 0; g < n; g++) {
            EstimatorHistory h = new EstimatorHistory(StatefulNetwork.gatewayName(g), settings.firstEstimator());
            for (StatefulNetwork.GatewayFault f : faults) {
                if (f.gateway() == g) {
                    h.apply(f.fault());
                }
            }
            senders[g] = ExternalSender.restore(StatefulNetwork.gatewayName(g), h, () -> {
                throw new IllegalStateException("a replay reads no clock");
            }, new ExternalSender.State(from.deliveredVt()[g], from.deliveredStamp()[g]));
        }
        AuctionBook book = from.book();
        List<LoggedInput> again = new ArrayList<>();
        for (LoggedInput in : logged) {
            if (in.stamp() > from.deliveredStamp()[in.gateway()]
                    && book.replyTo(in.input().clientId(), in.input().seq()) == null) {
                again.add(in);
            }
        }
        again.sort(Comparator.comparingInt(LoggedInput::gateway).thenComparingLong(LoggedInput::stamp));
        List<Message<Step>> messages = new ArrayList<>(from.scheduler().pending());
        for (LoggedInput in : again) {
            ExternalSender s = senders[in.gateway()];
            s.replayStamp(in.stamp());
            long iterations = GatewayWork.iterations(in.input(), settings.workSpread());
            ExternalSender.Handling h = s.begin(in.stamp(), new long[] {iterations});
            long score = GatewayWork.run(in.input(), iterations);
            messages.add(new Message<>(in.gateway(), h.outputVt(), new Step(in.gateway(), in.stamp(), in.input(),
                    score)));
            s.sent(h);
        }
        messages.sort((a, b) -> a.before(b) ? -1 : b.before(a) ? 1 : 0);
        List<Handled> handled = new ArrayList<>();
        long count = from.messages();
        for (Message<Step> m : messages) {
            if (count >= limit) {
                break;
            }
            Output out = book.handle(m.payload());
            count++;
            observer.handled(count, book);
            handled.add(new Handled(m.payload().input().key(), m.wire(), m.payload().stamp(), m.vt(), out));
        }
        return new Result(book, handled);
    }
}
