package org.ftlab.harness.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The suites of a bench, in order: the order {@code --help} describes them and {@code --suites} names the choices in,
 * and, those on the lab first, the order they run in. Checks a {@code --suites} list against them, and gives the
 * default list and the help text.
 */
public final class Suites {
    private final List<Suite> all;

    /** The suites {@code all}, in their order; their names are distinct. */
    public Suites(List<Suite> all) {
        this.all = List.copyOf(all);
    }

    /** Every suite, chosen or not. */
    public List<Suite> all() {
        return all;
    }

    /** The names of the suites that run when {@code --suites} is not given, in order. */
    public List<String> defaultNames() {
        return all.stream().filter(Suite::byDefault).map(Suite::name).toList();
    }

    /**
     * The suites {@code names} chooses, in this order whatever the order of the names.
     *
     * @throws IllegalArgumentException for a name that is none of theirs, in one line naming the choices
     */
    public List<Suite> chosen(List<String> names) {
        List<String> known = all.stream().map(Suite::name).toList();
        for (String name : names) {
            if (!known.contains(name)) {
                throw new IllegalArgumentException("--suites: unknown suite '" + name + "'; choose from "
                        + String.join(", ", known));
            }
        }
        return all.stream().filter(s -> names.contains(s.name())).toList();
    }

    /**
     * The command's description: {@code header}, then a paragraph per suite that has a description, those not in the
     * default list saying so.
     */
    public List<String> help(String header) {
        List<String> paragraphs = new ArrayList<>(List.of(header));
        for (Suite s : all) {
            if (!s.description().isEmpty()) {
                paragraphs.add(s.name() + (s.byDefault() ? "" : " (not in the default list)") + ": " + s.description());
            }
        }
        return paragraphs;
    }
}
