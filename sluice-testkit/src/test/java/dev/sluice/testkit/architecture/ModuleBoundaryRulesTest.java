package dev.sluice.testkit.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.EvaluationResult;
import dev.sluice.testkit.architecture.fixture.cycle.Api;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The two conditions of {@link ModuleBoundariesTest} on small fixtures, one shape per test. */
class ModuleBoundaryRulesTest {

    private static final String FIXTURE = "dev.sluice.testkit.architecture.fixture.";
    private static final String API = FIXTURE + "cycle.Api";
    private static final String MACHINERY = FIXTURE + "cycle.internal.Machinery";

    @Test
    void aCycleThroughAnInternalClassIsReportedWithEachUse() {
        List<String> details = violations(cycles(List.of()), "cycle");

        assertThat(details).hasSize(1);
        assertThat(details.get(0))
            .startsWith("dependency cycle between API and internal classes: " + API + " -> " + MACHINERY + " -> " + API)
            .contains("Method <" + API + ".size()> calls method <" + MACHINERY + ".sizeOf(" + API + ")> in (Api.java:")
            .contains("Method <" + MACHINERY + ".sizeOf(" + API + ")> calls method <" + API + ".name()>"
                + " in (Machinery.java:");
    }

    @Test
    void anInterfaceImplementedInternallyAndAFactoryCallingInIsNoCycle() {
        assertThat(violations(cycles(List.of()), "layered")).isEmpty();
    }

    @Test
    void aCycleAmongApiClassesOnlyIsNotThisRulesBusiness() {
        assertThat(violations(cycles(List.of()), "peers")).isEmpty();
    }

    @Test
    void aNestedClassCountsAsItsTopLevelClass() {
        List<String> details = violations(cycles(List.of()), "nested");

        assertThat(details).hasSize(1);
        assertThat(details.get(0)).startsWith("dependency cycle between API and internal classes: " + FIXTURE
            + "nested.Outer -> " + FIXTURE + "nested.internal.Helper -> " + FIXTURE + "nested.Outer");
    }

    @Test
    void aToleratedCyclePasses() {
        assertThat(violations(cycles(List.of(Set.of(API, MACHINERY))), "cycle")).isEmpty();
    }

    @Test
    void aToleratedCycleThatIsGoneAsksToBeRemoved() {
        Set<String> gone = Set.of(FIXTURE + "layered.Facade", FIXTURE + "layered.internal.Engine");

        List<String> details = violations(cycles(List.of(gone)), "layered");

        assertThat(details).singleElement().asString().contains("no longer exists: remove it");
    }

    @Test
    void aToleratedCycleOfAnotherModuleIsIgnored() {
        Set<String> elsewhere = Set.of("dev.sluice.frame.FrameHeader", "dev.sluice.frame.internal.Checks");

        assertThat(violations(cycles(List.of(elsewhere)), "layered")).isEmpty();
    }

    @Test
    void usingAnInternalClassOutsideTheClassesUnderTestIsReported() {
        JavaClasses onlyApi = new ClassFileImporter().importClasses(Api.class);

        List<String> details = classes().should(new OtherModulesInternals()).evaluate(onlyApi).getFailureReport()
            .getDetails();

        assertThat(details).singleElement().asString()
            .startsWith(MACHINERY + " is internal to another module: Method <" + API + ".size()> calls method");
    }

    @Test
    void usingAnInternalClassOfTheClassesUnderTestIsAllowed() {
        JavaClasses both = new ClassFileImporter().importPackages(FIXTURE + "cycle");

        EvaluationResult result = classes().should(new OtherModulesInternals()).evaluate(both);

        assertThat(result.hasViolation()).isFalse();
    }

    private static ArchCondition<JavaClass> cycles(List<Set<String>> tolerated) {
        return new ApiInternalCycles(tolerated);
    }

    private static List<String> violations(ArchCondition<JavaClass> condition, String fixture) {
        JavaClasses imported = new ClassFileImporter().importPackages(FIXTURE + fixture);
        return classes().should(condition).evaluate(imported).getFailureReport().getDetails();
    }
}
