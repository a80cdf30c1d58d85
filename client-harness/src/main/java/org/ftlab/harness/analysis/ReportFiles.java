package org.ftlab.harness.analysis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.ftlab.harness.probe.ClientCalibration;
import org.ftlab.harness.probe.DatabaseFailoverRecord;
import org.ftlab.harness.probe.ManagerFailoverRecord;
import org.ftlab.harness.probe.DatabaseWorkRecord;
import org.ftlab.harness.probe.StatefulTierRecord;
import org.ftlab.os.AtomicFiles;

/**
 * The report files of an analysed run, in {@code report/}: {@code histograms/<block>.hlog}, {@code summary.csv},
 * {@code summary.json} (with the stateful tier's and the database's sections when the run recorded them, and the
 * client's calibration when the machine had one) and
 * {@code index.html}, each written atomically.
 */
final class ReportFiles {
    private ReportFiles() {
    }

    /** Writes the report files of run {@code runDir} analysed as {@code result}. */
    static void write(Path runDir, RunAnalysis.Result result) throws IOException {
        Path report = runDir.resolve("report");
        Files.createDirectories(report);
        HistogramLogs.write(report.resolve("histograms"), result.histograms());
        AtomicFiles.write(report.resolve("summary.csv"), SummaryJson.csv(result));
        ObjectNode summary = SummaryJson.tree(result);
        StatefulTierRecord tier = StatefulTierRecord.readFrom(runDir);
        if (tier != null) {
            summary.set("stateful", StatefulTierSection.json(tier));
        }
        DatabaseFailoverRecord failovers = DatabaseFailoverRecord.readFrom(runDir);
        if (failovers != null) {
            summary.set("database_failovers", DatabaseFailoverSection.json(failovers));
        }
        ManagerFailoverRecord managers = ManagerFailoverRecord.readFrom(runDir);
        if (managers != null) {
            summary.set("manager_failovers", ManagerFailoverSection.json(managers));
        }
        DatabaseWorkRecord db = DatabaseWorkRecord.readFrom(runDir);
        if (db != null) {
            summary.set("database", DatabaseWorkSection.json(db));
        }
        if (ClientCalibration.readFrom(runDir) != null) { // read to check it; kept as written (snake_case)
            summary.set("client_calibration", SummaryJson.JSON.readTree(runDir.resolve(ClientCalibration.FILE)
                    .toFile()));
        }
        AtomicFiles.write(report.resolve("summary.json"), SummaryJson.JSON.writeValueAsString(summary));
        AtomicFiles.write(report.resolve("index.html"), HtmlReport.render(runDir, result));
    }
}
