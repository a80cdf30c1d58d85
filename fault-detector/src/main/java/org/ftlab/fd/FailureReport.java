package org.ftlab.fd;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * The Fault Detector's report to the Replication Manager ({@code POST /failure}, a form): which replica incarnation
 * failed, how it looked, and when the detector suspected it (µs since the epoch). Both sides use this record.
 */
public record FailureReport(String replica, long pid, FailureKind kind, long detectedEpochUs) {

    public String toForm() {
        return "replica=" + URLEncoder.encode(replica, StandardCharsets.UTF_8) + "&pid=" + pid + "&kind="
                + kind.wireName() + "&detectedEpochUs=" + detectedEpochUs;
    }

    /** Parses a decoded form; a clear {@link IllegalArgumentException} for a missing or malformed field. */
    public static FailureReport fromForm(Map<String, String> form) {
        try {
            return new FailureReport(required(form, "replica"), Long.parseLong(required(form, "pid")),
                    FailureKind.valueOf(required(form, "kind").toUpperCase(Locale.ROOT)),
                    Long.parseLong(required(form, "detectedEpochUs")));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("pid and detectedEpochUs must be numbers: " + e.getMessage());
        }
    }

    /** A form field that must be there, else a clear {@link IllegalArgumentException}. */
    static String required(Map<String, String> form, String name) {
        String v = form.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("missing parameter '" + name + "'");
        }
        return v;
    }
}
