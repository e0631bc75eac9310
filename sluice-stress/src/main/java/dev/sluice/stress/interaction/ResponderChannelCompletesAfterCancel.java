package dev.sluice.stress.interaction;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLLLL_Result;

/**
 * A responder channel's handler must get nothing on the inbound side after its {@code cancel()} returned, even
 * when the requester's COMPLETE reaches the event loop before the task the cancel queued. Regression test: when
 * written, {@code Inbound.complete()} checked only INBOUND_DONE, not CANCELLED, and delivered {@code onComplete}.
 *
 * <p>Same race as {@link ResponderChannelCancelVsComplete}, plus r5: the cancel had returned before
 * COMPLETE was delivered — after which no signal may follow. The loop delivers COMPLETE before running the queue,
 * so that every cancel that returned in time meets the bug.
 */
@JCStressTest
@Outcome(id = "NC, 0, 1, nc, false", expect = Expect.ACCEPTABLE, desc = "COMPLETE first: completed")
@Outcome(id = "NC, 0, 1, n, (true|false)", expect = Expect.ACCEPTABLE, desc = "cancel first, COMPLETE crossed it")
@Outcome(id = "NCX, 0, 1, n, (true|false)", expect = Expect.ACCEPTABLE, desc = "cancel first and sent")
@Outcome(id = ".*, nc, true", expect = Expect.FORBIDDEN, desc = "onComplete after the cancel returned")
@Outcome(expect = Expect.FORBIDDEN, desc = "stream leaked, ended twice, or a frame too many")
@State
public class ResponderChannelCompletesAfterCancel extends ResponderChannelRace {

    @Actor
    public void loop(LLLLL_Result r) {
        r.r5 = loopDeliversComplete(false);
    }

    @Actor
    public void handler() {
        handlerCancels();
    }

    @Arbiter
    public void after(LLLLL_Result r) {
        settle();
        r.r1 = host.written();
        r.r2 = host.registered();
        r.r3 = observer.terminations();
        r.r4 = handler.signals();
    }
}
