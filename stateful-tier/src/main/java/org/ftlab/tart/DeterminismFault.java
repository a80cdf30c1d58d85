package org.ftlab.tart;

import java.io.Serializable;

/**
 * A change of a component's estimator (seed 003 §II.G.4): it changes the virtual times the component computes from
 * then on, which nothing in the inputs determines, so it must be logged, synchronously, before it takes effect; a
 * replay applies it at the same virtual time.
 *
 * @param component the component whose estimator changes
 * @param effectiveVt the first dequeue time the new estimator applies to: later than any the component has used
 * @param estimator the new estimator
 */
public record DeterminismFault(String component, long effectiveVt, Estimator estimator) implements Serializable {
}
