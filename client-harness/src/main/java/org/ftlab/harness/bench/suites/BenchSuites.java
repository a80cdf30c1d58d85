package org.ftlab.harness.bench.suites;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.ftlab.harness.bench.Suite;
import org.ftlab.harness.bench.Suites;

/**
 * The suites of {@code ftlab bench}: the lab's own, registered here, then those a workload brings (a study of its
 * own, registered for {@link ServiceLoader} in {@code META-INF/services/org.ftlab.harness.bench.Suite}, in that file's
 * order). Their order is the order {@code --help} describes them and {@code --suites} names the choices in, and,
 * those on the lab first, the order they run in (the jmh suite reads the service suite's figures).
 */
public final class BenchSuites {
    private BenchSuites() {
    }

    /** A new instance of each, with its options unset: one command line's. */
    public static Suites create() {
        List<Suite> suites = new ArrayList<>(List.of(new ServiceSuite(), new AgreementSuite(), new FailoverSuite(),
                new AnalysisSuite(), new JmhSuite(), new AttributionSuite(), new CalibrationSuite()));
        ServiceLoader.load(Suite.class).forEach(suites::add);
        return new Suites(suites);
    }
}
