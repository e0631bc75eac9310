package dev.sluice.core;

import reactor.core.scheduler.Scheduler;

/** Builds the {@link Leases} of one server-side connection; called once per connection that asked for leases. */
@FunctionalInterface
public interface ServerLeaseConfigurer {

    /** @param scheduler runs on the connection's event loop: schedule lease timers on it */
    Leases configure(Scheduler scheduler);
}
