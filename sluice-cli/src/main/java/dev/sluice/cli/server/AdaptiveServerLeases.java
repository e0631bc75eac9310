package dev.sluice.cli.server;

import dev.sluice.core.AdaptiveLeases;
import dev.sluice.core.Leases;
import dev.sluice.core.RateLeases;
import dev.sluice.core.ServerLeaseConfigurer;
import dev.sluice.limits.adaptive.Limit;
import dev.sluice.limits.adaptive.SharedLimit;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code sluice server --lease adaptive}: a sender per connection that sizes each lease from the latency the server
 * measures. With a limit counted per second (CUBIC), {@link RateLeases} and one limit for the whole server, shared
 * by its connections; with one counted in flight, {@link AdaptiveLeases} and a limit per connection. The server's log
 * line hears of each lease sent and of each connection's current limit.
 */
final class AdaptiveServerLeases {

    /** How often a rate lease goes out (RateLeases' default), and so how often the shared limit may hear a sample. */
    private static final Duration RATE_PERIOD = Duration.ofMillis(25);

    private final LeaseLimit algorithm;
    private final Duration target;
    private final ServerStats stats;

    /** {@code target} may be null: rate leases then estimate one, the other algorithms judge latency by themselves. */
    AdaptiveServerLeases(LeaseLimit algorithm, Duration target, ServerStats stats) {
        this.algorithm = algorithm;
        this.target = target;
        this.stats = stats;
    }

    /** What the startup line says of these leases, e.g. {@code adaptive (cubic, target 20 ms)}. */
    String describe() {
        return "adaptive (" + algorithm + ", " + (target != null ? "target " + target.toMillis() + " ms"
            : algorithm.perSecond() ? "target estimated" : "no target latency") + ")";
    }

    ServerLeaseConfigurer configurer() {
        if (algorithm.perSecond()) {
            return rateConfigurer();
        }
        return scheduler -> {
            Limit limit = algorithm.create();
            AtomicInteger current = stats.trackLimit(limit.limit());
            limit.onChange(current::set);
            AdaptiveLeases sender = AdaptiveLeases.builder(limit).targetLatency(target).build();
            return Leases.of(new LoggedRecorder(stats, sender), both -> sender.leases(scheduler)
                .doOnNext(l -> stats.leaseSent(l.allowedRequests(), l.ttl().toMillis()))
                .doFinally(signal -> stats.untrackLimit(current)));
        };
    }

    /**
     * A rate is the server's to share: one limit for all its clients, each leased its part (a quarter evenly, the
     * rest by use), so that two proxies in front of it do not each find, and take, its whole capacity.
     */
    private ServerLeaseConfigurer rateConfigurer() {
        Limit limit = algorithm.create();
        // Samples at most every half period (each connection's timer drifts), and the drops the connections see of one
        // overload, within a tenth of a second of each other, back off once.
        SharedLimit shared = new SharedLimit(limit, RATE_PERIOD.toNanos() / 2, Duration.ofMillis(100).toNanos());
        AtomicInteger current = stats.trackLimit(limit.limit());
        limit.onChange(current::set);
        stats.sharedBy(shared::shares);
        return scheduler -> {
            SharedLimit.Share share = shared.join();
            RateLeases.Builder builder = target != null ? RateLeases.builder(target) : RateLeases.builder();
            RateLeases sender = builder.period(RATE_PERIOD).limit(share).build();
            return Leases.of(new LoggedRecorder(stats, sender), both -> sender.leases(scheduler)
                .doOnNext(l -> {
                    stats.leaseSent(l.allowedRequests(), l.ttl().toMillis());
                    Duration estimated = target == null ? sender.target() : null;
                    if (estimated != null) {
                        stats.estimatedTarget(estimated);
                    }
                })
                .doFinally(signal -> share.leave()));
        };
    }
}
