package org.ftlab.harness.history;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * One line of a run's history, as Jepsen records one: an invocation ({@code invoke}) or a completion ({@code ok}: it
 * took effect and this is its reply; {@code fail}: it certainly took no effect; {@code info}: it may or may not
 * have), or a fault's start ({@code info} of the {@code nemesis} process). docs/probe-format.md describes the
 * file.
 *
 * @param index its place in the history, from 0, in the order things happened (one counter for the whole run)
 * @param type {@code invoke}, {@code ok}, {@code fail} or {@code info}
 * @param f the operation ({@code offer}, {@code post}, {@code view}, ...); a fault's {@code start}
 * @param value the arguments on an invocation, what the reply said on an {@code ok}, why on a {@code fail} or
 *     {@code info}; null when there is nothing to say
 * @param process the client thread that sent it (a number); {@link #NEMESIS} for a fault. After an {@code info} the
 *     thread continues as a new process, as in Jepsen, because its old operation may still take effect.
 * @param timeNanos nanoseconds since the run's start, monotonic
 * @param key what the operation acts on (an auction), the unit the checker checks one by one; null when the
 *     invocation does not know it yet (a post: its completion names the auction it made)
 * @param client the client id ({@code clientId} of the request header)
 * @param seq the request's sequence number ({@code seq}); -1 for a fault
 * @param replica on a completion, the replica that answered (null when none did)
 * @param fault on a completion, the run's fault that began while it was in flight (its id in {@code faults.csv});
 *     null when none
 */
public record HistoryEvent(long index, Type type, String f, JsonNode value, long process, long timeNanos, String key,
        String client, long seq, String replica, String fault) {
    /** The process number that stands for the nemesis, the faults' process. */
    public static final long NEMESIS = -1;

    /** An event's kind, in Jepsen's words. */
    public enum Type {
        INVOKE, OK, FAIL, INFO;

        /** As the history writes it: lower case. */
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The type written {@code word}; one line saying what is allowed otherwise. */
        public static Type parse(String word) {
            for (Type t : values()) {
                if (t.wireName().equals(word)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("type must be invoke, ok, fail or info, was '" + word + "'");
        }
    }

    public boolean isInvocation() {
        return type == Type.INVOKE;
    }

    public boolean isNemesis() {
        return process == NEMESIS;
    }
}
