package org.ftlab.rm.api;

/**
 * The cause the analysis's attribution should name a stall of known cause by (docs/analysis.md, "Stalls injected on
 * purpose"): a cause of the attribution's, in a place, as a reader writes it: {@code gc-pause(r1)},
 * {@code cpu-outside(host)}.
 *
 * @param name the cause, as the attribution names it ({@code gc-pause})
 * @param place where the attribution should place it
 */
public record StallCause(String name, Place place) {
    /** Where the attribution places a cause. */
    public enum Place {
        /** The replica the stall acted on ({@code r1}). */
        REPLICA,
        /** The host: every host of one machine shares its CPUs. */
        HOST,
        /** The database. */
        DATABASE
    }

    public StallCause {
        if (name == null || name.isBlank() || place == null) {
            throw new IllegalArgumentException("a stall's cause needs a name and a place");
        }
    }
}
