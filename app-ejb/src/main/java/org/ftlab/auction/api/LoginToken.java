package org.ftlab.auction.api;

import java.io.Serializable;

/**
 * Proof of a login, kept in the database so that any replica accepts it after a fail-over.
 *
 * @param token opaque random token to pass to operations that need a logged-in user
 */
public record LoginToken(String token, long accountId) implements Serializable {
}
