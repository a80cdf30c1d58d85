package org.ftlab.auction.api;

import java.io.Serializable;
import java.util.Locale;

/**
 * The reply size a request asks for: the operation's natural reply ({@link #ORIGINAL}), or a payload of exactly
 * {@link #bytes()} bytes (the natural reply's encoding padded with zero bytes or trimmed), as in the 48-configuration
 * grid's reply-size factor.
 */
public final class ReplySize implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Largest sized reply the service produces; keeps a bad request from asking the server for gigabytes. */
    public static final int MAX_BYTES = 1 << 20;

    public static final ReplySize ORIGINAL = new ReplySize(-1);

    private final int bytes;

    private ReplySize(int bytes) {
        this.bytes = bytes;
    }

    /** A reply payload of exactly {@code bytes} bytes, 0 to {@link #MAX_BYTES}. */
    public static ReplySize ofBytes(int bytes) {
        if (bytes < 0 || bytes > MAX_BYTES) {
            throw new IllegalArgumentException("reply size must be 0.." + MAX_BYTES + " bytes, was " + bytes);
        }
        return new ReplySize(bytes);
    }

    /** Parses {@code original} / {@code orig} or a byte count such as {@code 512}. */
    public static ReplySize parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("original") || t.equals("orig")) {
            return ORIGINAL;
        }
        try {
            return ofBytes(Integer.parseInt(t));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("reply size must be 'original' or a byte count, was '" + text + "'");
        }
    }

    public boolean isOriginal() {
        return bytes < 0;
    }

    /** The exact payload size in bytes; only meaningful when not {@link #isOriginal()}. */
    public int bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReplySize other && other.bytes == bytes;
    }

    @Override
    public int hashCode() {
        return Integer.hashCode(bytes);
    }

    @Override
    public String toString() {
        return isOriginal() ? "original" : Integer.toString(bytes);
    }

    private Object readResolve() {
        return isOriginal() ? ORIGINAL : this;
    }
}
