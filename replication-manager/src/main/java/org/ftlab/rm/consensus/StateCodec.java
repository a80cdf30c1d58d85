package org.ftlab.rm.consensus;

import java.io.IOException;

/** How a whole state is written and read back: a snapshot, for a member that joins or lags too far behind. */
public interface StateCodec<S> {
    byte[] write(S state) throws IOException;

    S read(byte[] bytes) throws IOException;
}
