package org.ftlab.fd;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * The Fault Detector's question to the Replication Manager ({@code POST /process-state}, a form) when replicas run
 * on other machines: what is the state of this replica incarnation's process on its host? The reply is the
 * {@link ProcessState} as a JSON string. Both sides use this record.
 */
public record ProcessStateQuery(String replica, long pid) {

    public String toForm() {
        return "replica=" + URLEncoder.encode(replica, StandardCharsets.UTF_8) + "&pid=" + pid;
    }

    /** Parses a decoded form; a clear {@link IllegalArgumentException} for a missing or malformed field. */
    public static ProcessStateQuery fromForm(Map<String, String> form) {
        String replica = FailureReport.required(form, "replica");
        String pid = FailureReport.required(form, "pid");
        try {
            return new ProcessStateQuery(replica, Long.parseLong(pid));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("pid must be a number, was '" + pid + "'");
        }
    }

    /** The state in a reply's body ({@code "GONE"}). */
    public static ProcessState parseReply(String body) {
        try {
            return ProcessState.valueOf(body.strip().replace("\"", "").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a process state: " + body);
        }
    }
}
