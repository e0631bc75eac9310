package dev.sluice.stress.state;

import dev.sluice.core.internal.stream.StreamState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Half-close: the two directions end at once ({@code markInboundDone} and {@code markOutboundDone}). Exactly one
 * caller sees both done (its state before, plus its own bit) and takes the stream out of the registry.
 * r1, r2: what each side saw.
 */
@JCStressTest
@Outcome(id = {"true, false", "false, true"}, expect = Expect.ACCEPTABLE, desc = "the later side removes")
@Outcome(id = "true, true", expect = Expect.FORBIDDEN, desc = "both remove")
@Outcome(id = "false, false", expect = Expect.FORBIDDEN, desc = "nobody removes: the stream leaks")
@State
public class InboundVsOutboundDone extends StateHolder {

    public InboundVsOutboundDone() {
        super(StreamState.SUBSCRIBED | StreamState.FIRST_FRAME_SENT);
    }

    @Actor
    public void inbound(ZZ_Result r) {
        r.r1 = StreamState.bothDone(StreamState.markInboundDone(STATE, this) | StreamState.INBOUND_DONE);
    }

    @Actor
    public void outbound(ZZ_Result r) {
        r.r2 = StreamState.bothDone(StreamState.markOutboundDone(STATE, this) | StreamState.OUTBOUND_DONE);
    }
}
