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
 * Request-response, requested and waiting for the event loop: the loop's start task (REQUEST_RESPONSE) races the
 * subscriber's cancel. The request payload is released exactly once; the request is either never written, or
 * written and then cancelled; the stream leaves the registry; the subscriber hears nothing.
 *
 * <p>r1: frames written (Q request, X cancel); r2: request payload releases; r3: streams still registered;
 * r4: the subscriber's signals.
 */
@JCStressTest
@Outcome(id = "-, 1, 0, -", expect = Expect.ACCEPTABLE, desc = "cancelled before the start: nothing written")
@Outcome(id = "QX, 1, 0, -", expect = Expect.ACCEPTABLE, desc = "started, then cancelled")
@Outcome(id = "Q, .*", expect = Expect.FORBIDDEN, desc = "request sent and never cancelled")
@Outcome(expect = Expect.FORBIDDEN, desc = "payload leaked or released twice, stream leaked, or a signal")
@State
public class RequestResponseStartVsCancel {

    private final FakeHost host = new FakeHost();
    private final CountingPayload payload = new CountingPayload();
    private final RecordingSubscriber subscriber = new RecordingSubscriber(1);

    public RequestResponseStartVsCancel() {
        // Subscribed and requested off the loop: the start task waits in the loop's queue.
        new RequesterRequestResponse(host, payload).subscribe(subscriber);
    }

    @Actor
    public void loop() {
        host.actorLoop().enter();
        host.actorLoop().drain();
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
