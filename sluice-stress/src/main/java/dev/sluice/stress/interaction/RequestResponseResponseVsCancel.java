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
import org.openjdk.jcstress.infra.results.LLLLL_Result;

/**
 * Request-response, on the wire: the response (PAYLOAD with NEXT and COMPLETE) reaches the event loop while the
 * subscriber cancels. Either the subscriber gets the response and completes, or the cancel wins and the response
 * is released; CANCEL goes out only if the response had not ended the stream; nothing is signalled once a cancel
 * has returned.
 *
 * <p>r1: frames written (Q request, X cancel); r2: response payload releases; r3: streams still registered;
 * r4: the subscriber's signals (n onNext, c onComplete); r5: the cancel had returned before the response arrived.
 */
@JCStressTest
@Outcome(id = "Q, 1, 0, nc, false", expect = Expect.ACCEPTABLE, desc = "response first: delivered, cancel no-op")
@Outcome(id = "Q, 1, 0, -, (true|false)", expect = Expect.ACCEPTABLE,
    desc = "cancel first, the response crossed it and ended the stream: dropped, no CANCEL needed")
@Outcome(id = "QX, 1, 0, -, (true|false)", expect = Expect.ACCEPTABLE,
    desc = "cancel first and sent; the late response found no stream and was dropped")
@Outcome(id = ".*, nc, true", expect = Expect.FORBIDDEN, desc = "signalled after the cancel returned")
@Outcome(expect = Expect.FORBIDDEN, desc = "payload leaked or released twice, stream leaked, or a CANCEL too many")
@State
public class RequestResponseResponseVsCancel {

    private final FakeHost host = new FakeHost();
    private final CountingPayload response = new CountingPayload();
    private final RecordingSubscriber subscriber = new RecordingSubscriber(1);
    private volatile boolean cancelled;

    public RequestResponseResponseVsCancel() {
        // Subscribed and requested on the loop: REQUEST_RESPONSE goes out at once, as stream 1.
        host.actorLoop().enter();
        new RequesterRequestResponse(host, new CountingPayload()).subscribe(subscriber);
        host.actorLoop().leave();
    }

    @Actor
    public void loop(LLLLL_Result r) {
        host.actorLoop().enter();
        host.actorLoop().drain();
        r.r5 = cancelled;
        host.deliverNext(1, response, true);
        host.actorLoop().drain();
    }

    @Actor
    public void cancel() {
        subscriber.subscription().cancel();
        cancelled = true;
    }

    @Arbiter
    public void after(LLLLL_Result r) {
        host.actorLoop().enter();
        host.actorLoop().drain();
        r.r1 = host.written();
        r.r2 = response.releases();
        r.r3 = host.registered();
        r.r4 = subscriber.signals();
    }
}
