package dev.sluice.testkit.architecture;

import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.LocationProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Where the classes of the module under test are: its main and test class directories, which the parent pom's
 * Surefire configuration passes as the system properties {@value #CLASSES} and {@value #TEST_CLASSES}. Without them
 * (a run from an IDE) the Maven layout relative to the working directory is assumed.
 *
 * <p>Importing exactly these directories is what makes "this module" concrete for the rules: any class outside
 * them, say on the classpath as a dependency, belongs to another module. Package prefixes could not tell
 * {@code dev.sluice.limits} from {@code dev.sluice.limits.redis}.
 */
public final class ThisModule implements LocationProvider {

    /** System property: the module's main class directory ({@code target/classes}). */
    public static final String CLASSES = "sluice.module.classes";
    /** System property: the module's test class directory ({@code target/test-classes}). */
    public static final String TEST_CLASSES = "sluice.module.testClasses";

    @Override
    public Set<Location> get(Class<?> testClass) {
        Path classes = Path.of(System.getProperty(CLASSES, "target/classes"));
        Path testClasses = Path.of(System.getProperty(TEST_CLASSES, "target/test-classes"));
        if (!Files.isDirectory(classes)) {
            throw new IllegalStateException("no class directory to check: " + CLASSES + "=" + classes.toAbsolutePath()
                + " does not exist (compile the module first)");
        }
        Set<Location> locations = new LinkedHashSet<>();
        locations.add(Location.of(classes));
        // A module may have no tests of its own; the rules then check its main classes only.
        if (Files.isDirectory(testClasses)) {
            locations.add(Location.of(testClasses));
        }
        return locations;
    }
}
