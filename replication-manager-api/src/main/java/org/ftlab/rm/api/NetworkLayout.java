package org.ftlab.rm.api;

/**
 * The lab's virtual network ({@code --topology netns}), as the harness made it and the manager joins it: every host
 * is a network namespace {@code ftlab-<tag>-<host>} with one address on {@code <prefix>.0/24}, linked to a bridge in
 * the switch namespace {@code ftlab-<tag>-sw}. Written to {@code network.json} in the run directory.
 *
 * @param tag a short random id that names every namespace of this lab
 * @param prefix the first three octets of the lab's /24 ({@code 10.213.0})
 */
public record NetworkLayout(String tag, String prefix) {
    public static final String FILE = "network.json";
    /** Hosts the harness makes before the lab starts: the manager (with the Fault Detector), and the clients. */
    public static final String MANAGER_HOST = "rm";
    public static final String CLIENTS_HOST = "clients";
    public static final String DATABASE_HOST = "db";

    public NetworkLayout {
        if (!tag.matches("[0-9a-f]{4,8}")) {
            throw new IllegalArgumentException("a network tag is 4 to 8 hex digits, was '" + tag + "'");
        }
        if (!prefix.matches("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")) {
            throw new IllegalArgumentException("a network prefix is three octets, was '" + prefix + "'");
        }
    }

    /** The namespace of host {@code host}. */
    public String namespace(String host) {
        return "ftlab-" + tag + "-" + host;
    }

    public String switchNamespace() {
        return namespace("sw");
    }

    /**
     * The address of host {@code host}: {@code .2} the manager (and the Fault Detector), {@code .3} the clients,
     * {@code .4} the database, {@code .(4+K)} manager {@code mK} of a lab of several, {@code .(10+N)} replica
     * {@code rN}.
     */
    public String address(String host) {
        int last = switch (host) {
            case MANAGER_HOST -> 2;
            case CLIENTS_HOST -> 3;
            case DATABASE_HOST -> 4;
            default -> {
                if (host.matches("m[1-5]")) { // the members of a lab of several managers
                    yield 4 + Integer.parseInt(host.substring(1));
                }
                if (!host.matches("r\\d{1,3}") || Integer.parseInt(host.substring(1)) > 240) {
                    throw new IllegalArgumentException("no address for host '" + host + "'");
                }
                yield 10 + Integer.parseInt(host.substring(1));
            }
        };
        return prefix + "." + last;
    }
}
