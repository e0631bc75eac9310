package dev.sluice.transport.netty.lease;

import dev.sluice.core.RequestType;
import dev.sluice.core.StatsRecorder;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.SignalType;

/** Counts what a responder's stats recorder hears. */
final class CountingStats implements StatsRecorder<Void> {

    final AtomicLong started = new AtomicLong();
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final AtomicLong terminated = new AtomicLong();

    @Override
    public Void onRequestStarted(RequestType type, ByteBuf metadata) {
        started.incrementAndGet();
        return null;
    }

    @Override
    public void onResponseStarted(RequestType type, Void call, SignalType first, long latencyNanos,
                                  boolean wasRejected) {
        (wasRejected ? rejected : accepted).incrementAndGet();
    }

    @Override
    public void onResponseTerminated(RequestType type, Void call, SignalType last) {
        terminated.incrementAndGet();
    }
}
