package org.ftlab.os;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The build's layering check for the toolkit: no package cycle, and the ground floor ({@code org.ftlab.os} itself)
 * uses no other package of ftlab but the detector's process states, so that every other one can use it.
 */
@AnalyzeClasses(packages = "org.ftlab", importOptions = ImportOption.DoNotIncludeTests.class)
class GroundFloorTest {
    @ArchTest
    static final ArchRule noPackageDependsOnItselfThroughOthers =
            slices().matching("org.ftlab.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theGroundFloorUsesNoOtherPackageOfFtlab = noClasses().that()
            .resideInAPackage("org.ftlab.os").should().dependOnClassesThat()
            .resideInAnyPackage("org.ftlab.os.(*)..", "org.ftlab.rm..", "org.ftlab.auction..", "org.ftlab.harness..",
                    "org.ftlab.stateful..", "org.ftlab.tart..");
}
