package org.ftlab.auction.api;

import jakarta.ejb.ApplicationException;

/**
 * Base of the declared business exceptions: a request the service understood and refused. The transaction is rolled
 * back, so a refused request never writes anything; its message says what was wrong.
 */
@ApplicationException(rollback = true, inherited = true)
public abstract class AuctionException extends Exception {
    private static final long serialVersionUID = 1L;

    protected AuctionException(String message) {
        super(message);
    }
}
