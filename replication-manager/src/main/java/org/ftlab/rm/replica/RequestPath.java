package org.ftlab.rm.replica;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The request path of a replica: the packages whose code every request runs (the bean, JPA, the driver, EJB remoting
 * and invocation, marshalling, transactions, XNIO; for the HTTP door Undertow, RESTEasy and Jackson), what "hot" is measured on (docs/architecture.md), and the JIT
 * settings that make a replica compile it at the top tier sooner.
 */
public final class RequestPath {
    /**
     * The packages of the request path: both doors' (remote EJB's remoting and marshalling; the HTTP door's Undertow,
     * RESTEasy and Jackson) and what is behind them.
     */
    public static final List<String> PACKAGES = List.of("org.ftlab.auction.", "org.hibernate.", "com.mysql.",
            "org.jboss.ejb.", "org.jboss.as.ejb3.", "org.jboss.remoting3.", "org.jboss.marshalling.",
            "org.jboss.invocation.", "com.arjuna.", "org.wildfly.transaction.", "org.xnio.", "io.undertow.",
            "org.jboss.resteasy.", "com.fasterxml.jackson.");
    /** The HTTP door's own package: a reference (the primary's hot code) with it says clients use that door. */
    public static final String HTTP_DOOR_PACKAGE = "org.ftlab.auction.server.http.";
    /**
     * The environment variable that scales the JIT's compile thresholds of the request path's methods in every
     * replica of a lab started where it is set (HotSpot's per-method {@code CompileThresholdScaling}: 0.05 compiles a
     * method at each tier after a twentieth of the calls); 1: as the JVM's defaults; unset: {@value #DEFAULT_JIT_SCALING}.
     */
    public static final String JIT_SCALING_ENV = "FTLAB_JIT_SCALING";
    /**
     * The scaling of a lab where {@value #JIT_SCALING_ENV} is unset: the one measured to bring promoted replicas to
     * "hot" at the least cost (docs/performance.md §3).
     */
    public static final double DEFAULT_JIT_SCALING = 0.05;

    private RequestPath() {
    }

    /** Whether {@code method} (a fully qualified name) belongs to the request path. */
    public static boolean contains(String method) {
        for (String p : PACKAGES) {
            if (method.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The JVM options that scale the request path's compile thresholds by {@code scaling} (none for 1).
     *
     * @throws IllegalArgumentException unless {@code 0 < scaling <= 1}
     */
    public static List<String> jitOptions(double scaling) {
        if (!(scaling > 0 && scaling <= 1)) {
            throw new IllegalArgumentException(JIT_SCALING_ENV + " must be a number above 0 and at most 1 (the share "
                    + "of the JVM's compile thresholds the request path's methods get), was " + scaling);
        }
        if (scaling == 1) {
            return List.of();
        }
        List<String> options = new ArrayList<>();
        options.add("-XX:CompileCommand=quiet"); // one line per command on the console otherwise
        for (String p : PACKAGES) {
            options.add(String.format(Locale.ROOT, "-XX:CompileCommand=CompileThresholdScaling,%s*::*,%s", p,
                    Double.toString(scaling)));
        }
        return options;
    }

    /**
     * The scaling {@value #JIT_SCALING_ENV} sets, {@value #DEFAULT_JIT_SCALING} when unset.
     *
     * @throws IllegalArgumentException with what is wrong and how to fix it, for a value that is not a scaling
     */
    public static double jitScalingFromEnvironment() {
        return jitScaling(System.getenv(JIT_SCALING_ENV));
    }

    /** The scaling a value of {@value #JIT_SCALING_ENV} sets ({@code null}: unset). */
    static double jitScaling(String v) {
        if (v == null || v.isBlank()) {
            return DEFAULT_JIT_SCALING;
        }
        double scaling;
        try {
            scaling = Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(JIT_SCALING_ENV + " must be a number above 0 and at most 1, e.g. 0.05; "
                    + "was '" + v + "'");
        }
        jitOptions(scaling); // validates
        return scaling;
    }
}
