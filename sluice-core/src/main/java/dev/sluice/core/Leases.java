package dev.sluice.core;

import java.time.Duration;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;

/**
 * What one connection's responder leases: the {@code Flux<Lease>} it sends (each element goes out as a LEASE
 * frame) and, optionally, the {@link StatsRecorder} that watches its responses. Built by a
 * {@link ServerLeaseConfigurer} or {@link ClientLeaseConfigurer} per connection.
 */
public final class Leases {

    private final Flux<Lease> leases;
    private final StatsRecorder<?> stats;

    private Leases(Flux<Lease> leases, StatsRecorder<?> stats) {
        this.leases = leases;
        this.stats = stats;
    }

    /** Sends {@code leases}; no statistics. */
    public static Leases of(Flux<Lease> leases) {
        return new Leases(leases, null);
    }

    /** Sends the leases {@code sender} derives from {@code stats}, which watches the responses. */
    public static <S extends StatsRecorder<?>> Leases of(S stats, Function<? super S, Flux<Lease>> sender) {
        return new Leases(sender.apply(stats), stats);
    }

    /** Sends nothing: with leasing on, the responder then accepts no request. */
    public static Leases none() {
        return new Leases(Flux.never(), null);
    }

    /**
     * The static lease sender: {@code allowedRequests} every {@code ttl}, the first at once, re-issued each ttl on
     * {@code scheduler} (the connection's, as the configurers receive it).
     */
    public static Flux<Lease> fixed(Duration ttl, int allowedRequests, Scheduler scheduler) {
        Lease lease = Lease.of(ttl, allowedRequests);
        return Flux.interval(Duration.ZERO, ttl, scheduler).map(tick -> lease);
    }

    /**
     * The adaptive lease sender: leases sized from the responses' latency by {@code sender} (see
     * {@link AdaptiveLeases}), which also watches them, timed on {@code scheduler} (the connection's, as the
     * configurers receive it). Build a new sender, with a new {@link dev.sluice.limits.adaptive.Limit}, for each
     * connection.
     */
    public static Leases adaptive(AdaptiveLeases sender, Scheduler scheduler) {
        return of(sender, s -> s.leases(scheduler));
    }

    /**
     * The rate lease sender: leases of the requests per second that keep responses within {@code sender}'s target
     * (see {@link RateLeases}), timed on {@code scheduler} (the connection's, as the configurers receive it). Build
     * a new sender for each connection.
     */
    public static Leases adaptive(RateLeases sender, Scheduler scheduler) {
        return of(sender, s -> s.leases(scheduler));
    }

    public Flux<Lease> leases() {
        return leases;
    }

    /** The recorder, or null. */
    public StatsRecorder<?> stats() {
        return stats;
    }
}
