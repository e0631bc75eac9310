package dev.sluice.stress.state;

import dev.sluice.core.internal.stream.StreamState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

/**
 * The subscriber's cancel ({@code markCancelled}) races the event loop starting the request
 * ({@code markFirstFrameSent}): the cancel either sees the frame sent (and its caller sends CANCEL) or prevents it.
 *
 * <p>r1: the cancel saw FIRST_FRAME_SENT; r2: the start may write the request (its returned state had neither
 * FIRST_FRAME_SENT nor anything that forbids a signal, as the interaction classes test it); r3: FIRST_FRAME_SENT is
 * set at the end.
 */
@JCStressTest
@Outcome(id = "true, true, true", expect = Expect.ACCEPTABLE, desc = "sent, then cancelled: CANCEL follows")
@Outcome(id = "false, false, false", expect = Expect.ACCEPTABLE, desc = "cancelled before the request went out")
@Outcome(id = "false, true, .*", expect = Expect.FORBIDDEN, desc = "sent, and the cancel missed it: stream leaks")
@Outcome(id = "false, false, true", expect = Expect.FORBIDDEN, desc = "marked sent after the cancel")
@Outcome(expect = Expect.FORBIDDEN, desc = "inconsistent")
@State
public class CancelVsFirstFrame extends StateHolder {

    public CancelVsFirstFrame() {
        super(StreamState.SUBSCRIBED | 1);
    }

    @Actor
    public void cancel(ZZZ_Result r) {
        r.r1 = StreamState.isFirstFrameSent(StreamState.markCancelled(STATE, this));
    }

    @Actor
    public void start(ZZZ_Result r) {
        long prev = StreamState.markFirstFrameSent(STATE, this);
        r.r2 = !StreamState.isFirstFrameSent(prev) && StreamState.canSignal(prev);
    }

    @Arbiter
    public void after(ZZZ_Result r) {
        r.r3 = StreamState.isFirstFrameSent(state);
    }
}
