package dev.sluice.core;

import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;

/**
 * Builds the {@link Leases} of a client connection's responder (what the server may send to this client).
 * Called once per connection.
 */
@FunctionalInterface
public interface ClientLeaseConfigurer {

    /**
     * @param rtt       keep-alive round-trip times in nanoseconds ({@link Connection#rtt()})
     * @param scheduler runs on the connection's event loop: schedule lease timers on it
     */
    Leases configure(Flux<Long> rtt, Scheduler scheduler);
}
