package org.ftlab.fd;

/**
 * The {@link SuspicionTap} above VERIFY_SUSPECT: every suspicion it sees was verified (the suspect did not answer
 * an are-you-dead probe in time).
 */
public final class VerifiedSuspicionTap extends SuspicionTap {
}
