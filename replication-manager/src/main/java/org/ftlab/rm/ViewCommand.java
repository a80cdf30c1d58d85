package org.ftlab.rm;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Map;
import org.ftlab.fd.FailureKind;
import org.ftlab.rm.api.FailureRecord;
import org.ftlab.rm.api.InjectedFault;
import org.ftlab.rm.api.TierRecovery;
import org.ftlab.rm.consensus.Command;
import org.ftlab.rm.consensus.StateCodec;
import org.ftlab.rm.replica.Replica;

/**
 * Each change of the {@link ViewKeeper}'s state as a command: what the managers replicate. A command carries every
 * input of its decision (times, the replicas' top-tier shares), so every member's keeper decides alike; the leader acts
 * on the decision only once the group has agreed on it.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "command")
@JsonSubTypes({
        @JsonSubTypes.Type(value = ViewCommand.Lead.class, name = "lead"),
        @JsonSubTypes.Type(value = ViewCommand.LabUp.class, name = "lab-up"),
        @JsonSubTypes.Type(value = ViewCommand.Stop.class, name = "stop"),
        @JsonSubTypes.Type(value = ViewCommand.Acting.class, name = "acting"),
        @JsonSubTypes.Type(value = ViewCommand.Launching.class, name = "launching"),
        @JsonSubTypes.Type(value = ViewCommand.Launched.class, name = "launched"),
        @JsonSubTypes.Type(value = ViewCommand.LaunchFailed.class, name = "launch-failed"),
        @JsonSubTypes.Type(value = ViewCommand.Join.class, name = "join"),
        @JsonSubTypes.Type(value = ViewCommand.OfferSpare.class, name = "offer-spare"),
        @JsonSubTypes.Type(value = ViewCommand.SetDegree.class, name = "set-degree"),
        @JsonSubTypes.Type(value = ViewCommand.Fail.class, name = "fail"),
        @JsonSubTypes.Type(value = ViewCommand.TierRecovered.class, name = "tier-recovered"),
        @JsonSubTypes.Type(value = ViewCommand.NextFaultId.class, name = "next-fault-id"),
        @JsonSubTypes.Type(value = ViewCommand.Injected.class, name = "injected"),
        @JsonSubTypes.Type(value = ViewCommand.Made.class, name = "made"),
        @JsonSubTypes.Type(value = ViewCommand.Withdrawn.class, name = "withdrawn"),
        @JsonSubTypes.Type(value = ViewCommand.Repaired.class, name = "repaired")})
sealed interface ViewCommand<R> extends Command<ViewKeeper, R> {

    /** A command that only changes the view: it answers nothing. */
    sealed interface Change extends ViewCommand<Void> {
        void change(ViewKeeper v);

        @Override
        default Void applyTo(ViewKeeper v) {
            change(v);
            return null;
        }

        @Override
        default Class<Void> resultType() {
            return Void.class;
        }
    }

    /** {@link ViewKeeper#lead}: a leader's first change of the view in its term, before it acts on the view. */
    record Lead(String member, long term, long nowUs) implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.lead(member, term, nowUs);
        }
    }

    /** {@link ViewKeeper#labUp}. */
    record LabUp(LabProcesses processes) implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.labUp(processes);
        }
    }

    /** {@link ViewKeeper#acting}. */
    record Acting(String member, long term, long nowUs) implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.acting(member, term, nowUs);
        }
    }

    /** {@link ViewKeeper#stop}. */
    record Stop() implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.stop();
        }
    }

    /** {@link ViewKeeper#launching()}: a new replica's name. */
    record Launching() implements ViewCommand<String> {
        @Override
        public String applyTo(ViewKeeper v) {
            return v.launching();
        }

        @Override
        public Class<String> resultType() {
            return String.class;
        }
    }

    /** {@link ViewKeeper#launched}. */
    record Launched(Replica.Launch launch) implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.launched(launch);
        }
    }

    /** {@link ViewKeeper#launchFailed}. */
    record LaunchFailed(String name) implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.launchFailed(name);
        }
    }

    /** {@link ViewKeeper#join}. */
    record Join(String name, long nowUs) implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.join(name, nowUs);
        }
    }

    /** {@link ViewKeeper#offerSpare}: whether it joined the view. */
    record OfferSpare(String name, long nowUs) implements ViewCommand<Boolean> {
        @Override
        public Boolean applyTo(ViewKeeper v) {
            return v.offerSpare(name, nowUs);
        }

        @Override
        public Class<Boolean> resultType() {
            return Boolean.class;
        }
    }

    /** {@link ViewKeeper#setDegree}. */
    record SetDegree(int degree, long nowUs) implements ViewCommand<ViewKeeper.DegreeChange> {
        @Override
        public ViewKeeper.DegreeChange applyTo(ViewKeeper v) {
            return v.setDegree(degree, nowUs);
        }

        @Override
        public Class<ViewKeeper.DegreeChange> resultType() {
            return ViewKeeper.DegreeChange.class;
        }
    }

    /**
     * {@link ViewKeeper#fail}, with the live replicas' shares of the request path at the top tier as the leader read
     * them (the promoted one's is recorded).
     */
    record Fail(String name, FailureKind verdict, FailureRecord.Source source, long detectedEpochUs, long nowUs,
            Map<String, Double> topTierShares) implements ViewCommand<ViewKeeper.Failure> {
        @Override
        public ViewKeeper.Failure applyTo(ViewKeeper v) {
            return v.fail(name, verdict, source, detectedEpochUs, nowUs, topTierShares::get);
        }

        @Override
        public Class<ViewKeeper.Failure> resultType() {
            return ViewKeeper.Failure.class;
        }
    }

    /** {@link ViewKeeper#tierRecovered}. */
    record TierRecovered(String faultId, TierRecovery recovery) implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.tierRecovered(faultId, recovery);
        }
    }

    /** {@link ViewKeeper#nextFaultId()}. */
    record NextFaultId() implements ViewCommand<String> {
        @Override
        public String applyTo(ViewKeeper v) {
            return v.nextFaultId();
        }

        @Override
        public Class<String> resultType() {
            return String.class;
        }
    }

    /** {@link ViewKeeper#injected}. */
    record Injected(InjectedFault fault) implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.injected(fault);
        }
    }

    /** {@link ViewKeeper#made}. */
    record Made(String faultId, long epochUs) implements ViewCommand<InjectedFault> {
        @Override
        public InjectedFault applyTo(ViewKeeper v) {
            return v.made(faultId, epochUs);
        }

        @Override
        public Class<InjectedFault> resultType() {
            return InjectedFault.class;
        }
    }

    /** {@link ViewKeeper#withdrawn}. */
    record Withdrawn(String faultId) implements Change {
        @Override
        public void change(ViewKeeper v) {
            v.withdrawn(faultId);
        }
    }

    /** {@link ViewKeeper#repaired}. */
    record Repaired(String faultId, long nowUs, InjectedFault.Repair how) implements ViewCommand<InjectedFault> {
        @Override
        public InjectedFault applyTo(ViewKeeper v) {
            return v.repaired(faultId, nowUs, how);
        }

        @Override
        public Class<InjectedFault> resultType() {
            return InjectedFault.class;
        }
    }

    /** A keeper's whole state as JSON: the snapshot a member that joins late, or lags too far, is sent. */
    StateCodec<ViewKeeper> CODEC = new StateCodec<>() {
        private final ObjectMapper json = new ObjectMapper();

        @Override
        public byte[] write(ViewKeeper keeper) throws IOException {
            return json.writeValueAsBytes(keeper.state());
        }

        @Override
        public ViewKeeper read(byte[] bytes) throws IOException {
            return ViewKeeper.of(json.readValue(bytes, ViewKeeper.State.class));
        }
    };
}
