package org.ftlab.harness.bench.suites;

import java.util.List;
import org.ftlab.harness.bench.Suites;

/**
 * The suites of {@code ftlab bench}, registered here and nowhere else. Their order is the order {@code --help}
 * describes them and {@code --suites} names the choices in, and, those on the lab first, the order they run in (the
 * jmh suite reads the service suite's figures).
 */
public final class BenchSuites {
    private BenchSuites() {
    }

    /** A new instance of each, with its options unset: one command line's. */
    public static Suites create() {
        return new Suites(List.of(new ServiceSuite(), new AgreementSuite(), new FailoverSuite(), new AnalysisSuite(),
                new JmhSuite(), new AttributionSuite(), new TartSuite()));
    }
}
