package org.ftlab.auction.api;

import java.io.Serializable;

/** An account as the service shows it (never the password). */
public record AccountInfo(long accountId, String username) implements Serializable {
}
