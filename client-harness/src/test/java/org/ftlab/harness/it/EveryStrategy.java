package org.ftlab.harness.it;

import java.util.stream.Stream;
import org.ftlab.harness.failover.Strategies;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;

/** The built-in fail-over strategies by name, for a test that must hold for each: {@code @ArgumentsSource}. */
public final class EveryStrategy implements ArgumentsProvider {
    @Override
    public Stream<? extends Arguments> provideArguments(ExtensionContext context) {
        return Strategies.names().stream().map(Arguments::of);
    }
}
