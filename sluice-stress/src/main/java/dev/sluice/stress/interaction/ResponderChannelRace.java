package dev.sluice.stress.interaction;

import dev.sluice.core.internal.stream.ResponderRequestChannel;
import dev.sluice.stress.fake.CountingObserver;
import dev.sluice.stress.fake.CountingPayload;
import dev.sluice.stress.fake.FakeHost;
import dev.sluice.stress.fake.ManualPublisher;
import dev.sluice.stress.fake.RecordingSubscriber;

/**
 * The set-up and the two sides of "the handler cancels the requester's payloads while the requester's COMPLETE
 * arrives" on a responder channel, shared by the test that runs by default and the known-bug test that also checks
 * for a signal after cancel.
 *
 * <p>Set-up, on the loop: stream 1 is registered; the handler subscribed to the inbound side with
 * {@code request(2)}, got the first payload (n) and one credit went out (N); its outbound side already completed
 * (C), so the stream ends when the inbound side does.
 */
public abstract class ResponderChannelRace {

    protected final FakeHost host = new FakeHost();
    protected final CountingObserver observer = new CountingObserver();
    protected final RecordingSubscriber handler = new RecordingSubscriber(2);
    private volatile boolean cancelled;

    protected ResponderChannelRace() {
        host.actorLoop().enter();
        ResponderRequestChannel channel =
            new ResponderRequestChannel(host, 1, 1, new CountingPayload(), false, observer);
        host.registerPeerStream(1, channel);
        ManualPublisher handlerOutbound = new ManualPublisher();
        handlerOutbound.subscribe(channel);
        channel.inbound().subscribe(handler);
        handlerOutbound.complete();
        host.actorLoop().leave();
        if (!host.written().equals("NC") || !handler.signals().equals("n")) {
            throw new IllegalStateException("set-up: frames=" + host.written() + ", signals=" + handler.signals());
        }
    }

    /**
     * The event loop: runs what is queued if {@code drainFirst}, then delivers COMPLETE; returns whether the cancel
     * had returned by then. Without the first drain the cancel's task always comes after COMPLETE.
     */
    protected final boolean loopDeliversComplete(boolean drainFirst) {
        host.actorLoop().enter();
        if (drainFirst) {
            host.actorLoop().drain();
        }
        boolean cancelledBefore = cancelled;
        host.deliverComplete(1);
        host.actorLoop().drain();
        return cancelledBefore;
    }

    /** The handler's thread: cancels its subscription to the inbound side. */
    protected final void handlerCancels() {
        handler.subscription().cancel();
        cancelled = true;
    }

    /** The arbiter: the loop runs what is left. */
    protected final void settle() {
        host.actorLoop().enter();
        host.actorLoop().drain();
    }
}
