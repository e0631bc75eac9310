package dev.sluice.stress.interaction;

import dev.sluice.core.internal.stream.RequesterRequestResponse;
import dev.sluice.stress.fake.CountingPayload;
import dev.sluice.stress.fake.FakeHost;
import dev.sluice.stress.fake.RecordingSubscriber;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLLL_Result;

/**
 * Request-response's {@code request(1)} after a {@code cancel()} that came before any demand must be a no-op
 * (Reactive Streams rule 3.6). Regression test: when written, the cancel released the payload itself and the
 * request still queued the start task, which found the payload field null ({@code NullPointerException} on the
 * event loop) or released it a second time; {@code StreamState.wasIdle} now tells {@code request} to schedule
 * nothing after a cancel.
 *
 * <p>r1: frames written, then "!" and what a loop task threw; r2: payload releases; r3: streams still registered;
 * r4: the subscriber's signals. The event loop (the arbiter) runs the queued tasks after both actors.
 */
@JCStressTest
@Outcome(id = "-, 1, 0, -", expect = Expect.ACCEPTABLE, desc = "nothing written, payload released once")
@Outcome(expect = Expect.FORBIDDEN, desc = "the loop threw, the payload leaked or was released twice")
@State
public class RequestResponseRequestAfterCancel {

    private final FakeHost host = new FakeHost();
    private final CountingPayload payload = new CountingPayload();
    private final RecordingSubscriber subscriber = new RecordingSubscriber(0);

    public RequestResponseRequestAfterCancel() {
        new RequesterRequestResponse(host, payload).subscribe(subscriber);
    }

    @Actor
    public void request() {
        subscriber.subscription().request(1);
    }

    @Actor
    public void cancel() {
        subscriber.subscription().cancel();
    }

    @Arbiter
    public void after(LLLL_Result r) {
        host.actorLoop().enter();
        host.actorLoop().drain();
        r.r1 = host.written();
        r.r2 = payload.releases();
        r.r3 = host.registered();
        r.r4 = subscriber.signals();
    }
}
