package org.ftlab.rm.api;

import java.util.Arrays;
import java.util.Locale;

/**
 * The middleware a client reaches the auction service through: the same bean, request log and probes behind two
 * doors. {@link #EJB}: remote EJB over WildFly's remoting (HTTP upgrade), the seeds' platform; {@link #REST}: HTTP
 * with JSON through WildFly's JAX-RS ({@code org.ftlab.auction.api.http.HttpDoor}), on the same port.
 */
public enum Platform {
    EJB,
    REST;

    /** The name users give ({@code --platform ejb,rest}) and files record. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The platform called {@code name} (case and blanks ignored); one line naming the valid ones otherwise. */
    public static Platform parse(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (Platform p : values()) {
            if (p.wireName().equals(n)) {
                return p;
            }
        }
        throw new IllegalArgumentException("--platform must be one of " + String.join(", ", Arrays.stream(values())
                .map(Platform::wireName).toList()) + ", was '" + name + "'");
    }
}
