package org.ftlab.os;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The build's layering check for the manager's door: no package cycle, and the ground floor ({@code rm.os}) uses no
 * other package of the manager, so that every other one can use it.
 */
@AnalyzeClasses(packages = "org.ftlab", importOptions = ImportOption.DoNotIncludeTests.class)
class GroundFloorTest {
    @ArchTest
    static final ArchRule noPackageDependsOnItselfThroughOthers =
            slices().matching("org.ftlab.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theGroundFloorUsesNoOtherPackageOfTheManager = noClasses().that()
            .resideInAPackage("org.ftlab.os..").should().dependOnClassesThat()
            .resideInAnyPackage("org.ftlab.rm", "org.ftlab.rm.api..", "org.ftlab.os.net..", "org.ftlab.rm.db..",
                    "org.ftlab.rm.replica..", "org.ftlab.rm.fault..");
}
