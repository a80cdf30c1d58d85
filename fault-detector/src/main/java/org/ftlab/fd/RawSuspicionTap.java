package org.ftlab.fd;

/** The {@link SuspicionTap} below VERIFY_SUSPECT: raw suspicions, as FD_SOCK2 and FD_ALL3 raise them. */
public final class RawSuspicionTap extends SuspicionTap {
}
