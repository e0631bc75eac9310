package dev.sluice.testkit.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;

/**
 * The boundary rules of one module, run by ArchUnit's JUnit engine over that module's own main and test classes
 * ({@link ThisModule}). It lives in the testkit's main code so that every module runs it without a copy: the
 * parent pom's Surefire configuration scans the testkit for tests ({@code dependenciesToScan}), and every module
 * uses the testkit already, for the leak gate.
 */
@AnalyzeClasses(locations = ThisModule.class)
public class ModuleBoundariesTest {

    /**
     * Cycles that pass until the work that breaks them lands. Each entry names every class the cycle may span; a
     * cycle reaching a class not named fails, and an entry whose cycle is gone fails too, asking to be removed.
     */
    static final List<Set<String>> TOLERATED_CYCLES = List.of();

    /** Rule (a) and (c) of issue #16: a module's internals are its own; its tests may use them, no one else. */
    @ArchTest
    static final ArchRule internalsStayInTheirModule = classes()
        .should(new OtherModulesInternals())
        .because("a module's internal packages are machinery it may change at will; other modules use its API and"
            + " SPI (docs/architecture.md, 'Boundaries')");

    /** Rule (b) of issue #16. */
    @ArchTest
    static final ArchRule noCycleBetweenApiAndInternal = classes()
        .should(new ApiInternalCycles(TOLERATED_CYCLES))
        .because("an internal class that an API class depends on, and that depends back on it, cannot change on"
            + " its own (docs/architecture.md, 'Boundaries')");
}
