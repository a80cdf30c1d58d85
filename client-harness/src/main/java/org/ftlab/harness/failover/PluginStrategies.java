package org.ftlab.harness.failover;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Loads a fail-over strategy a user wrote ({@code --strategy class:NAME --plugin-dir DIR}): a public class that
 * implements {@link FailoverStrategy} and has a public constructor taking the client's {@link ReplicaSet}, from a
 * directory of compiled classes or a jar. Every way the class can be wrong is found here, before a lab starts, and
 * said in one line. The strategy runs behind a {@link PluginStrategy guard} that turns what it does wrong at run time
 * into a {@link PluginFailure}.
 */
public final class PluginStrategies {
    /** How a plug-in is named on the command line and in manifests: {@code class:} and the class's binary name. */
    public static final String PREFIX = "class:";

    private PluginStrategies() {
    }

    /** Whether {@code name} names a plug-in. */
    public static boolean isPlugin(String name) {
        return name != null && name.trim().startsWith(PREFIX);
    }

    /**
     * The strategy {@code name} ({@code class:NAME}) from {@code location}, checked; a client made from it keeps
     * connections to every serving replica and follows the view, as the pre-connected client does.
     *
     * @param giveUp the clients' bound on one request's fail-overs: a plug-in call still running well past it has
     *     hung
     */
    public static Strategies.Kind load(String name, Path location, Duration giveUp) {
        String className = name.trim().substring(PREFIX.length()).trim();
        if (className.isEmpty()) {
            throw new IllegalArgumentException("--strategy class:NAME needs the class's name with its package, e.g. "
                    + "class:edu.example.MyStrategy");
        }
        if (location == null) {
            throw new IllegalArgumentException("--strategy " + PREFIX + className + " needs --plugin-dir: the "
                    + "directory of its compiled classes (e.g. DIR/target/classes) or its jar");
        }
        if (!Files.exists(location)) {
            throw new IllegalArgumentException("--plugin-dir " + location + " does not exist; build the plug-in "
                    + "first ('mvn -q package' in its directory) and give DIR/target/classes or the jar");
        }
        if (!Files.isDirectory(location) && !location.getFileName().toString().endsWith(".jar")) {
            throw new IllegalArgumentException("--plugin-dir " + location + " is neither a directory of classes nor a "
                    + "jar");
        }
        Class<?> c;
        try {
            ClassLoader loader = new URLClassLoader("ftlab-plugin", new URL[] {url(location)},
                    PluginStrategies.class.getClassLoader());
            c = Class.forName(className, true, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("no class " + className + " in " + location + "; give the name with "
                    + "its package, and the directory the compiled classes are in (DIR/target/classes) or the jar");
        } catch (UnsupportedClassVersionError e) {
            throw new IllegalArgumentException(className + " was compiled for a newer Java than this one ("
                    + System.getProperty("java.specification.version") + "); compile it with --release "
                    + System.getProperty("java.specification.version"));
        } catch (LinkageError e) {
            Throwable why = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException(className + " cannot be loaded: " + PluginStrategy.describe(why));
        }
        if (!FailoverStrategy.class.isAssignableFrom(c)) {
            throw new IllegalArgumentException(className + " is not a fail-over strategy: it must implement "
                    + FailoverStrategy.class.getName());
        }
        if (!Modifier.isPublic(c.getModifiers()) || Modifier.isAbstract(c.getModifiers()) || c.isInterface()) {
            throw new IllegalArgumentException(className + " must be a public, non-abstract class");
        }
        Constructor<? extends FailoverStrategy> constructor;
        try {
            constructor = c.asSubclass(FailoverStrategy.class).getConstructor(ReplicaSet.class);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(className + " needs a public constructor taking the client's "
                    + ReplicaSet.class.getName());
        }
        String kindName = PREFIX + className;
        long hangNanos = giveUp.plus(PluginStrategy.HANG_MARGIN).toNanos();
        return new Strategies.Kind(kindName, "a plug-in strategy from " + location, true,
                replicas -> new PluginStrategy(kindName, construct(kindName, constructor, replicas), hangNanos));
    }

    private static FailoverStrategy construct(String name, Constructor<? extends FailoverStrategy> constructor,
            ReplicaSet replicas) {
        try {
            return constructor.newInstance(replicas);
        } catch (InvocationTargetException e) {
            throw new PluginFailure("plug-in strategy " + name + ": its constructor threw "
                    + PluginStrategy.describe(e.getCause()), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new PluginFailure("plug-in strategy " + name + " cannot be made: " + e, e);
        }
    }

    private static URL url(Path location) {
        try {
            return location.toAbsolutePath().toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("--plugin-dir " + location + " is not a usable path: " + e.getMessage());
        }
    }
}
