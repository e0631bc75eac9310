package dev.sluice.stress.interaction;

import dev.sluice.core.internal.stream.RequesterFireAndForget;
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
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * Fire-and-forget, subscribed off the loop: the loop's start task (one compare-and-set to TERMINATED, then
 * REQUEST_FNF) races the subscriber's cancel. Either the frame goes out and the subscriber completes, or nothing
 * is written and the subscriber hears nothing; the payload is released exactly once either way.
 *
 * <p>r1: frames written (Q the request); r2: payload releases; r3: streams registered (always none); r4: the
 * subscriber's signals.
 */
@JCStressTest
@Outcome(id = "Q, 1, 0, c", expect = Expect.ACCEPTABLE, desc = "sent before the cancel: completes")
@Outcome(id = "-, 1, 0, -", expect = Expect.ACCEPTABLE, desc = "cancelled before the start: nothing written")
@Outcome(expect = Expect.FORBIDDEN, desc = "payload leaked or released twice, a signal after cancel, or a throw")
@State
public class FireAndForgetStartVsCancel {

    private final FakeHost host = new FakeHost();
    private final CountingPayload payload = new CountingPayload();
    private final RecordingSubscriber subscriber = new RecordingSubscriber(0);

    @SuppressWarnings({"unchecked", "rawtypes"})
    public FireAndForgetStartVsCancel() {
        // Subscribed off the loop: the start task waits in the loop's queue.
        Mono<Void> fnf = new RequesterFireAndForget(host, payload, false);
        fnf.subscribe((CoreSubscriber) subscriber);
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
