package dev.sluice.stress.interaction;

import dev.sluice.core.internal.stream.RequesterRequestChannel;
import dev.sluice.stress.fake.CountingPayload;
import dev.sluice.stress.fake.FakeHost;
import dev.sluice.stress.fake.ManualPublisher;
import dev.sluice.stress.fake.RecordingSubscriber;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LLLLL_Result;

/**
 * Request-channel half-close: the responder's COMPLETE (our inbound side ends) reaches the event loop while the
 * application emits its next payload and completes from its own thread. The responder's COMPLETE ends only the
 * inbound side, so the payload and our COMPLETE still go out; the subscriber completes once; the stream leaves the
 * registry once both sides are done, whichever ends last.
 *
 * <p>r1: frames written (Q REQUEST_CHANNEL, P PAYLOAD, C COMPLETE); r2: the frames written when the responder's
 * COMPLETE arrived; r3: second payload releases; r4: streams still registered; r5: the subscriber's signals
 * (c onComplete).
 */
@JCStressTest
@Outcome(id = "QPC, Q, 1, 0, c", expect = Expect.ACCEPTABLE, desc = "half-closed first: payload, COMPLETE still sent")
@Outcome(id = "QPC, QPC?, 1, 0, c", expect = Expect.ACCEPTABLE, desc = "payload (and COMPLETE) sent first")
@Outcome(id = "QC?, .*", expect = Expect.FORBIDDEN, desc = "outbound payload dropped after the peer's COMPLETE")
@Outcome(expect = Expect.FORBIDDEN, desc = "payload leaked or released twice, stream leaked, or signals wrong")
@State
public class RequestChannelCompleteVsNext {

    private final FakeHost host = new FakeHost();
    private final ManualPublisher outbound = new ManualPublisher();
    private final CountingPayload first = new CountingPayload();
    private final CountingPayload second = new CountingPayload();
    private final RecordingSubscriber subscriber = new RecordingSubscriber(1);

    public RequestChannelCompleteVsNext() {
        // On the loop: the first request(1) subscribes to the outbound side, whose first payload goes out inside
        // REQUEST_CHANNEL as stream 1; the responder then grants one more.
        host.actorLoop().enter();
        new RequesterRequestChannel(host, outbound).subscribe(subscriber);
        outbound.next(first);
        host.deliverRequestN(1, 1);
        host.actorLoop().leave();
        if (outbound.requested() != 2 || first.releases() != 1) {
            throw new IllegalStateException("set-up: outbound requested=" + outbound.requested() + " (want 2), "
                + "first payload released " + first.releases() + " times (want 1)");
        }
    }

    @Actor
    public void loop(LLLLL_Result r) {
        host.actorLoop().enter();
        host.actorLoop().drain();
        r.r2 = host.written();
        host.deliverComplete(1);
        host.actorLoop().drain();
    }

    @Actor
    public void application() {
        outbound.next(second);
        outbound.complete();
    }

    @Arbiter
    public void after(LLLLL_Result r) {
        host.actorLoop().enter();
        host.actorLoop().drain();
        r.r1 = host.written();
        r.r3 = second.releases();
        r.r4 = host.registered();
        r.r5 = subscriber.signals();
    }
}
