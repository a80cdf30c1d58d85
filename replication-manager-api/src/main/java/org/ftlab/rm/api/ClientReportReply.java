package org.ftlab.rm.api;

/** The answer to a client's {@code POST /report}: whether the manager confirmed the failure, and the view now. */
public record ClientReportReply(boolean confirmed, PrimaryBackupView view) {
}
