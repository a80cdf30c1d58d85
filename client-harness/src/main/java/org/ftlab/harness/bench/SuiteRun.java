package org.ftlab.harness.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.ftlab.harness.lab.ManagedLab;

/**
 * What a suite runs with: the lab (null for a suite that needs none), the bench's directory, where its progress goes,
 * the rounds the command line asks for, and the report its figures and table go to.
 */
public record SuiteRun(ManagedLab lab, Path dir, PrintWriter progress, Rounds rounds, BenchReport report) {
}
