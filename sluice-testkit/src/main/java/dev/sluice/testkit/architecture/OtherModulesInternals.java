package dev.sluice.testkit.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * An ArchUnit condition that a class violates by using a class in another Sluice module's internal packages
 * ({@code dev.sluice..internal..}): one violation per use, quoting the member and source line.
 *
 * <p>"Another module" means outside the classes under test, which {@link ThisModule} makes exactly one module's
 * main and test classes. So a module's tests may use its own internals, and no other module's.
 */
final class OtherModulesInternals extends ArchCondition<JavaClass> {

    private static final PackageMatcher SLUICE_INTERNAL = PackageMatcher.of("dev.sluice..internal..");

    /** Names of the classes under test: this module's. */
    private final Set<String> own = new HashSet<>();

    OtherModulesInternals() {
        super("not use classes in another Sluice module's internal packages (dev.sluice..internal..)");
    }

    @Override
    public void init(Collection<JavaClass> all) {
        own.clear();
        for (JavaClass c : all) {
            own.add(c.getName());
        }
    }

    @Override
    public void check(JavaClass c, ConditionEvents events) {
        for (Dependency d : c.getDirectDependenciesFromSelf()) {
            JavaClass target = d.getTargetClass().getBaseComponentType();
            if (SLUICE_INTERNAL.matches(target.getPackageName()) && !own.contains(target.getName())) {
                events.add(SimpleConditionEvent.violated(d, target.getName() + " is internal to another module: "
                    + d.getDescription()));
            }
        }
    }
}
