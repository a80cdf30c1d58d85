package org.ftlab.stateful;

import java.io.Serializable;

/**
 * A gateway's message to the auction engine: the input it took, with what its work made of it.
 *
 * @param stamp the input's stamp (its arrival's virtual time), which the checkpoint keeps per gateway
 * @param score the result of the gateway's checks (a digest over the input that its loop computed)
 */
public record Step(int gateway, long stamp, Input input, long score) implements Serializable {
}
