package org.ftlab.tart;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The build's layering check for this module: no package cycle, and the runtime ({@code org.ftlab.tart}) knows
 * nothing of the auction network it runs ({@code org.ftlab.stateful}).
 */
@AnalyzeClasses(packages = "org.ftlab", importOptions = ImportOption.DoNotIncludeTests.class)
class PackagesTest {
    @ArchTest
    static final ArchRule noPackageDependsOnItselfThroughOthers =
            slices().matching("org.ftlab.(**)").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule theRuntimeKnowsNoApplication = noClasses().that().resideInAPackage("org.ftlab.tart..")
            .should().dependOnClassesThat().resideInAPackage("org.ftlab.stateful..");
}
