package org.ftlab.harness.history.check;

import org.ftlab.harness.history.HistoryEvent;

/**
 * A sequential specification of the service, as a linearizability checker needs one (Knossos's and Porcupine's
 * models): a state per key, and what each operation does to it. The checker asks whether some order of a key's
 * operations, each placed between its invocation and completion, is a run of the model that gives every reply the
 * clients saw.
 *
 * <p>A model reads its operations from the history once ({@link #input}, {@link #output}), as records of its own; the
 * search then only steps. States must be values: equal when the model cannot tell them apart ({@code equals} and
 * {@code hashCode}), since the search remembers the states it has been in.
 *
 * @param <S> its state
 */
public interface Model<S> {
    /** Its name, as verdicts give it. */
    String name();

    /** A key's state before any operation. */
    S init();

    /**
     * The arguments of the operation {@code invoke} starts, read once; null when this model does not check that
     * operation (it is left out of the check, and counted).
     */
    Object input(HistoryEvent invoke);

    /** What the reply {@code ok} said, read once. */
    Object output(Object input, HistoryEvent ok);

    /**
     * The state after the operation ({@code input}, {@code output}) in {@code state}, or null when the operation
     * cannot have given that reply there. {@code output} null: its outcome is unknown ({@code info}), so any reply
     * would do; it must still be an operation the state allows.
     */
    S step(S state, Object input, Object output);

    /** Why the operation cannot follow {@code state}, in one sentence; an anomaly's explanation. */
    String why(S state, Object input, Object output);

    /** The operation, in a few words ({@code offer 1240 -> outbid, c2 leads at 1300}). */
    String show(Object input, Object output);

    /** A state, in a few words. */
    String show(S state);
}
