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
import org.openjdk.jcstress.infra.results.LLLLL_Result;

/**
 * Request-stream, on the wire with 1 requested: the subscriber's {@code request(2)} then {@code cancel()} race the
 * event loop delivering the responder's COMPLETE and running what was queued. The subscriber completes or the
 * cancel wins, never both; no REQUEST_N follows a CANCEL; CANCEL goes out only for a stream that has not ended;
 * nothing is signalled once the cancel has returned.
 *
 * <p>r1: frames written (Q request, N REQUEST_N, X cancel); r2: request payload releases; r3: streams still
 * registered; r4: the subscriber's signals (c onComplete); r5: the cancel had returned before COMPLETE arrived.
 */
@JCStressTest
@Outcome(id = "QN?, 1, 0, c, false", expect = Expect.ACCEPTABLE, desc = "COMPLETE first: completed, cancel no-op")
@Outcome(id = "QN?, 1, 0, -, (true|false)", expect = Expect.ACCEPTABLE,
    desc = "cancel first, COMPLETE crossed it and ended the stream: no CANCEL needed")
@Outcome(id = "QN?X, 1, 0, -, (true|false)", expect = Expect.ACCEPTABLE,
    desc = "cancel first and sent; the late COMPLETE found no stream")
@Outcome(id = ".*, c, true", expect = Expect.FORBIDDEN, desc = "completed after the cancel returned")
@Outcome(expect = Expect.FORBIDDEN, desc = "payload leaked or released twice, stream leaked, frame after CANCEL")
@State
public class RequestStreamCancelVsComplete {

    private final FakeHost host = new FakeHost();
    private final CountingPayload payload = new CountingPayload();
    private final RecordingSubscriber subscriber = new RecordingSubscriber(1);
    private volatile boolean cancelled;

    public RequestStreamCancelVsComplete() {
        // Subscribed and requested on the loop: REQUEST_STREAM(n=1) goes out at once, as stream 1.
        host.actorLoop().enter();
        new RequesterRequestStream(host, payload).subscribe(subscriber);
        host.actorLoop().leave();
    }

    @Actor
    public void loop(LLLLL_Result r) {
        host.actorLoop().enter();
        host.actorLoop().drain();
        r.r5 = cancelled;
        host.deliverComplete(1);
        host.actorLoop().drain();
    }

    @Actor
    public void subscriber() {
        subscriber.subscription().request(2);
        subscriber.subscription().cancel();
        cancelled = true;
    }

    @Arbiter
    public void after(LLLLL_Result r) {
        host.actorLoop().enter();
        host.actorLoop().drain();
        r.r1 = host.written();
        r.r2 = payload.releases();
        r.r3 = host.registered();
        r.r4 = subscriber.signals();
    }
}
