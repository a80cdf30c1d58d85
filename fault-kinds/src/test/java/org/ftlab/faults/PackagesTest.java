package org.ftlab.faults;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The build's layering check for this module (and what it is built on). */
@AnalyzeClasses(packages = "org.ftlab", importOptions = ImportOption.DoNotIncludeTests.class)
class PackagesTest {
    @ArchTest
    static final ArchRule noPackageDependsOnItselfThroughOthers =
            slices().matching("org.ftlab.(**)").should().beFreeOfCycles();
}
