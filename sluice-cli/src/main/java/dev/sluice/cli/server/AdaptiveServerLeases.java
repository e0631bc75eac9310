package dev.sluice.cli.server;

import dev.sluice.core.AdaptiveLeases;
import dev.sluice.core.Lease;
import dev.sluice.core.Leases;
import dev.sluice.core.RateLeases;
import dev.sluice.core.ServerLeaseConfigurer;
import dev.sluice.core.StatsRecorder;
import dev.sluice.limits.adaptive.Limit;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Flux;

/**
 * {@code sluice server --lease adaptive}: every connection gets a limit of its own, of the chosen algorithm, and a
 * sender that sizes each lease from that connection's response latency: {@link RateLeases} for a limit counted per
 * second (CUBIC), {@link AdaptiveLeases} for one counted in flight. The server's log
 * line hears of each lease sent and of each connection's current limit.
 */
final class AdaptiveServerLeases {

    private final LeaseLimit algorithm;
    private final Duration target;
    private final ServerStats stats;

    /** {@code target} may be null: the algorithm then judges latency by itself. */
    AdaptiveServerLeases(LeaseLimit algorithm, Duration target, ServerStats stats) {
        this.algorithm = algorithm;
        this.target = target;
        this.stats = stats;
    }

    /** What the startup line says of these leases, e.g. {@code adaptive (cubic, target 20 ms)}. */
    String describe() {
        return "adaptive (" + algorithm + ", " + (target == null ? "no target latency" : "target "
            + target.toMillis() + " ms") + ")";
    }

    ServerLeaseConfigurer configurer() {
        return scheduler -> {
            Limit limit = algorithm.create();
            AtomicInteger current = stats.trackLimit(limit.limit());
            limit.onChange(current::set);
            Flux<Lease> leases;
            StatsRecorder<Object> sender;
            if (algorithm.perSecond()) {
                RateLeases rate = RateLeases.builder(target).limit(limit).build();
                leases = rate.leases(scheduler);
                sender = rate;
            } else {
                AdaptiveLeases inFlight = AdaptiveLeases.builder(limit).targetLatency(target).build();
                leases = inFlight.leases(scheduler);
                sender = inFlight;
            }
            return Leases.of(new LoggedRecorder(stats, sender), both -> leases
                .doOnNext(l -> stats.leaseSent(l.allowedRequests(), l.ttl().toMillis()))
                .doFinally(signal -> stats.untrackLimit(current)));
        };
    }
}
