package org.ftlab.harness.history;

/**
 * What an operation is, as its invocation enters the history: its name ({@code f}), what it acts on ({@code key};
 * null when only its reply will say, as for a post) and its arguments ({@code value}: a record or map Jackson writes,
 * or null).
 */
public record Invocation(String f, String key, Object value) {
    public Invocation {
        if (f == null || f.isBlank()) {
            throw new IllegalArgumentException("an operation needs a name");
        }
    }
}
