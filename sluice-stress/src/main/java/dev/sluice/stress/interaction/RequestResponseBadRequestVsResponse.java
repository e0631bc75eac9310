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
 * Request-response, on the wire: the subscriber's {@code request(0)} races the response (PAYLOAD with NEXT and
 * COMPLETE) reaching the event loop. The subscriber gets the response and completes, or gets the
 * {@code IllegalArgumentException} of Reactive Streams rule 3.9 alone and the response is released; never both,
 * never neither. (The response's ordered store may overwrite a bad request that lands between its read and its
 * store: the response then wins, and the bad request's task finds nothing owed.)
 *
 * <p>r1: frames written (Q request, X cancel); r2: response payload releases; r3: streams still registered;
 * r4: the subscriber's signals (n onNext, c onComplete, e onError).
 */
@JCStressTest
@Outcome(id = "Q, 1, 0, nc", expect = Expect.ACCEPTABLE, desc = "response first: delivered, the bad request a no-op")
@Outcome(id = "Q, 1, 0, e", expect = Expect.ACCEPTABLE,
    desc = "bad request first, the response crossed it and ended the stream: dropped, the error, no CANCEL needed")
@Outcome(id = "QX, 1, 0, e", expect = Expect.ACCEPTABLE,
    desc = "bad request first, CANCEL sent and the error signalled; the late response found no stream")
@Outcome(expect = Expect.FORBIDDEN, desc = "no terminal signal or two, payload leaked, stream leaked, CANCEL too many")
@State
public class RequestResponseBadRequestVsResponse {

    private final FakeHost host = new FakeHost();
    private final CountingPayload response = new CountingPayload();
    private final RecordingSubscriber subscriber = new RecordingSubscriber(1);

    public RequestResponseBadRequestVsResponse() {
        // Subscribed and requested on the loop: REQUEST_RESPONSE goes out at once, as stream 1.
        host.actorLoop().enter();
        new RequesterRequestResponse(host, new CountingPayload()).subscribe(subscriber);
        host.actorLoop().leave();
    }

    @Actor
    public void loop() {
        host.actorLoop().enter();
        host.actorLoop().drain();
        host.deliverNext(1, response, true);
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
        r.r2 = response.releases();
        r.r3 = host.registered();
        r.r4 = subscriber.signals();
    }
}
