package org.ftlab.harness.grid;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.ftlab.rm.api.DegreeChange;
import org.ftlab.rm.api.ManagerStatus;

/**
 * The replication degree of a run that varies it: before each block the lab's view gets the block's degree (backups
 * to the spare pool and back, {@link GridLab#setDegree}); after the run, the degree the lab had before.
 */
final class DegreeChanges {
    /** How long a block waits for its degree, and for its clients to follow the view. */
    private static final long WAIT_NANOS = 180_000_000_000L;
    private final GridLab lab;
    private final RunControl control;
    private final PrintWriter progress;
    /** The degree the lab had before the run, restored at its end; 0: not changed. */
    private int labDegree;

    DegreeChanges(GridLab lab, RunControl control, PrintWriter progress) {
        this.lab = lab;
        this.control = control;
        this.progress = progress;
    }

    /**
     * Gives the lab's view degree {@code replicas}; returns once the view has it and every client of the block
     * follows that view (connected to its members, for the strategies that keep connections).
     */
    void change(int replicas, List<GridClient> blockClients) throws IOException, InterruptedException {
        ManagerStatus before = lab.status();
        if (labDegree == 0) {
            labDegree = before.targetDegree();
        }
        if (before.targetDegree() != replicas) {
            DegreeChange.Result r = lab.setDegree(replicas);
            progress.printf(Locale.ROOT, "degree %d%s%s%n", replicas, r.left().isEmpty() ? ""
                    : ": " + String.join(", ", r.left()) + " to the spare pool", r.joined().isEmpty() ? ""
                    : ": " + String.join(", ", r.joined()) + " joined the view");
            progress.flush();
        }
        long deadline = System.nanoTime() + WAIT_NANOS;
        ManagerStatus s = lab.status();
        while (control.going() && !(s.fullDegree() && s.targetDegree() == replicas) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            s = lab.status();
        }
        if (control.going() && !(s.fullDegree() && s.targetDegree() == replicas)) {
            throw new IllegalStateException("the lab did not reach degree " + replicas + " within 180 s (it serves "
                    + s.degree() + "): see the manager's log in the lab's run directory");
        }
        long epoch = s.epoch();
        while (control.going() && System.nanoTime() < deadline
                && !blockClients.stream().allMatch(c -> c.session().client.follows(epoch))) {
            Thread.sleep(20);
        }
    }

    /** After a run that changed the degree: the lab gets the degree it had before (it may serve other runs). */
    void restore() {
        if (labDegree > 0) {
            try {
                if (lab.status().targetDegree() != labDegree) {
                    lab.setDegree(labDegree);
                }
            } catch (IOException | RuntimeException e) {
                progress.println("could not give the lab back its degree " + labDegree + ": " + e.getMessage());
            }
        }
    }
}
