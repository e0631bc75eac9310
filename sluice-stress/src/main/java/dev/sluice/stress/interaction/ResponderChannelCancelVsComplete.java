package dev.sluice.stress.interaction;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLLL_Result;

/**
 * Responder channel: the handler cancels the inbound side while the requester's COMPLETE arrives (see
 * {@link ResponderChannelRace}). CANCEL goes out only if the requester had not completed, and then the handler
 * does not complete; the stream ends exactly once and leaves the registry.
 *
 * <p>r1: frames written (N REQUEST_N, C our COMPLETE, X CANCEL); r2: streams still registered; r3: terminations
 * reported to the observer; r4: the handler's inbound signals (n onNext, c onComplete).
 */
@JCStressTest
@Outcome(id = "NC, 0, 1, nc", expect = Expect.ACCEPTABLE, desc = "COMPLETE first: completed, the cancel is moot")
@Outcome(id = "NC, 0, 1, n", expect = Expect.ACCEPTABLE, desc = "cancel first, COMPLETE crossed it: no CANCEL")
@Outcome(id = "NCX, 0, 1, n", expect = Expect.ACCEPTABLE, desc = "cancel first and sent; COMPLETE found no stream")
@Outcome(id = "NCX, .*, nc", expect = Expect.FORBIDDEN, desc = "both CANCEL sent and completed")
@Outcome(expect = Expect.FORBIDDEN, desc = "stream leaked, ended twice, or a frame too many")
@State
public class ResponderChannelCancelVsComplete extends ResponderChannelRace {

    @Actor
    public void loop() {
        loopDeliversComplete(true);
    }

    @Actor
    public void handler() {
        handlerCancels();
    }

    @Arbiter
    public void after(LLLL_Result r) {
        settle();
        r.r1 = host.written();
        r.r2 = host.registered();
        r.r3 = observer.terminations();
        r.r4 = handler.signals();
    }
}
