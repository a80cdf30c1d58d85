package org.ftlab.rm.api;

import java.util.Locale;

/** The contract's one spelling of an enum constant on the wire: lower case, words joined by '-' ({@code at-shutdown}). */
final class WireNames {
    private WireNames() {
    }

    static String of(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static <E extends Enum<E>> E parse(Class<E> type, String wire) {
        return Enum.valueOf(type, wire.toUpperCase(Locale.ROOT).replace('-', '_'));
    }
}
