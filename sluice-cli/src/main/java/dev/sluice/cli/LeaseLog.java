package dev.sluice.cli;

import dev.sluice.core.Lease;
import dev.sluice.core.Leases;
import dev.sluice.core.RequestType;
import dev.sluice.core.ServerLeaseConfigurer;
import dev.sluice.core.StatsRecorder;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import reactor.core.publisher.SignalType;

/**
 * A server's static leases ({@code allowed} requests every {@code ttl} per connection) with counters of what its
 * responders accepted and rejected, for the once-a-second log line.
 */
final class LeaseLog implements StatsRecorder<Void> {

    private final int allowed;
    private final Duration ttl;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicReference<Lease> lastSent = new AtomicReference<>();
    private long loggedAccepted;
    private long loggedRejected;

    LeaseLog(int allowed, Duration ttl) {
        this.allowed = allowed;
        this.ttl = ttl;
    }

    /** The server's lease configurer: each connection gets the static sender and these counters. */
    ServerLeaseConfigurer configurer() {
        return scheduler -> Leases.of(this, stats -> Leases.fixed(ttl, allowed, scheduler).doOnNext(lastSent::set));
    }

    @Override
    public Void onRequestStarted(RequestType type, ByteBuf metadata) {
        return null;
    }

    @Override
    public void onResponseStarted(RequestType type, Void call, SignalType first, long latencyNanos,
                                  boolean wasRejected) {
        (wasRejected ? rejected : accepted).incrementAndGet();
    }

    @Override
    public void onResponseTerminated(RequestType type, Void call, SignalType last) {
    }

    /** "accepted=.. rejected=.. lease=.." for the interval since the previous call; null if nothing happened. */
    synchronized String sinceLastCall() {
        long a = accepted.get();
        long r = rejected.get();
        Lease lease = lastSent.get();
        if (a == loggedAccepted && r == loggedRejected) {
            return null;
        }
        String line = "leases: accepted=" + (a - loggedAccepted) + " rejected=" + (r - loggedRejected)
            + " last lease sent=" + (lease == null ? "none" : lease.allowedRequests() + " requests / "
            + lease.ttl().toMillis() + " ms");
        loggedAccepted = a;
        loggedRejected = r;
        return line;
    }
}
