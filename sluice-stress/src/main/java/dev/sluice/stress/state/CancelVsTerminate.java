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
 * The subscriber's cancel ({@code markCancelled}) races the stream's end ({@code markTerminated}): exactly one of
 * them wins the right to act — the cancel to send CANCEL and release, or the end to signal the subscriber.
 *
 * <p>r1: {@code canSignal} of the state the cancel returned (the cancel took effect); r2: the same for
 * the termination (it may signal); r3: CANCELLED is set at the end (a cancel after the end must change nothing).
 */
@JCStressTest
@Outcome(id = "true, false, true", expect = Expect.ACCEPTABLE, desc = "cancel first: no terminal signal")
@Outcome(id = "false, true, false", expect = Expect.ACCEPTABLE, desc = "end first: the late cancel is a no-op")
@Outcome(id = "true, true, .*", expect = Expect.FORBIDDEN, desc = "both won: a signal after cancel")
@Outcome(id = "false, false, .*", expect = Expect.FORBIDDEN, desc = "neither won: the subscriber hangs")
@Outcome(id = "false, true, true", expect = Expect.FORBIDDEN, desc = "a cancel after the end set CANCELLED")
@State
public class CancelVsTerminate extends StateHolder {

    public CancelVsTerminate() {
        super(StreamState.SUBSCRIBED | StreamState.FIRST_FRAME_SENT | 1);
    }

    @Actor
    public void cancel(ZZZ_Result r) {
        r.r1 = StreamState.canSignal(StreamState.markCancelled(STATE, this));
    }

    @Actor
    public void terminate(ZZZ_Result r) {
        r.r2 = StreamState.canSignal(StreamState.markTerminated(STATE, this));
    }

    @Arbiter
    public void after(ZZZ_Result r) {
        r.r3 = StreamState.isCancelled(state);
    }
}
