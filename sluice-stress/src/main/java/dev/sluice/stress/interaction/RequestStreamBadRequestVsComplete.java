package dev.sluice.stress.interaction;

import dev.sluice.core.internal.stream.RequesterRequestStream;
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
 * Request-stream, on the wire with 1 requested: the subscriber's {@code request(0)} races the event loop delivering
 * the responder's COMPLETE. The subscriber gets exactly one terminal signal: the completion, or the
 * {@code IllegalArgumentException} of Reactive Streams rule 3.9 (the bad request cancels the stream, so a COMPLETE
 * behind it is not signalled); CANCEL goes out only for a stream that has not ended.
 *
 * <p>r1: frames written (Q request, X cancel); r2: request payload releases; r3: streams still registered;
 * r4: the subscriber's signals (c onComplete, e onError).
 */
@JCStressTest
@Outcome(id = "Q, 1, 0, c", expect = Expect.ACCEPTABLE, desc = "COMPLETE first: completed, the bad request a no-op")
@Outcome(id = "Q, 1, 0, e", expect = Expect.ACCEPTABLE,
    desc = "bad request first, COMPLETE crossed it and ended the stream: the error, no CANCEL needed")
@Outcome(id = "QX, 1, 0, e", expect = Expect.ACCEPTABLE,
    desc = "bad request first, CANCEL sent and the error signalled; the late COMPLETE found no stream")
@Outcome(expect = Expect.FORBIDDEN, desc = "no terminal signal or two, a stream leaked, or a CANCEL too many")
@State
public class RequestStreamBadRequestVsComplete {

    private final FakeHost host = new FakeHost();
    private final CountingPayload payload = new CountingPayload();
    private final RecordingSubscriber subscriber = new RecordingSubscriber(1);

    public RequestStreamBadRequestVsComplete() {
        // Subscribed and requested on the loop: REQUEST_STREAM(n=1) goes out at once, as stream 1.
        host.actorLoop().enter();
        new RequesterRequestStream(host, payload).subscribe(subscriber);
        host.actorLoop().leave();
    }

    @Actor
    public void loop() {
        host.actorLoop().enter();
        host.actorLoop().drain();
        host.deliverComplete(1);
        host.actorLoop().drain();
    }

    @Actor
    public void subscriber() {
        subscriber.subscription().request(0);
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
