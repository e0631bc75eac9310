package dev.sluice.stress.knownbugs;

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
 * KNOWN BUG, left out of the default run: request-response's {@code request(1)} after a {@code cancel()} that came
 * before any demand is not a no-op. The cancel saw demand 0 and released the payload itself; {@code addDemand}
 * refuses to add after CANCELLED but returns a state with demand 0, so {@code request} still queues the start
 * task, which finds the payload field null ({@code NullPointerException} on the event loop) — or, when the
 * cancel's plain write of null is not yet visible there, releases the payload a second time.
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
        r.r1 = host.frames();
        r.r2 = payload.releases();
        r.r3 = host.registered();
        r.r4 = subscriber.signals();
    }
}
