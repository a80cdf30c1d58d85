package org.ftlab.stateful;

import java.io.Serializable;

/** An external input as the input log keeps it: the gateway that took it and its stamp, its virtual arrival time. */
public record LoggedInput(int gateway, long stamp, Input input) implements Serializable {
}
