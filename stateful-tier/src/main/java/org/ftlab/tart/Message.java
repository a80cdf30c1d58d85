package org.ftlab.tart;

import java.io.Serializable;

/**
 * A message on a wire between two components, stamped with the virtual time it is to be handled at. Every tick of a
 * wire is either data (one message) or silence, so a wire never carries two messages at one virtual time; messages
 * of different wires at the same time are ordered by wire (seed 003's footnote 2): lower wire first.
 *
 * @param wire the wire's number at its receiver (0, 1, …), which also breaks ties
 * @param vt the virtual time, ticks
 */
public record Message<T extends Serializable>(int wire, long vt, T payload) implements Serializable {
    /** Whether this message is handled before {@code o}: earlier virtual time, or the same on a lower wire. */
    public boolean before(Message<?> o) {
        return vt < o.vt || vt == o.vt && wire < o.wire;
    }
}
