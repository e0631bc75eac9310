package dev.sluice.transport.netty.lease;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.RejectedException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sends request-responses through a leasing client and counts how each ended: answered, refused by a lease
 * (a {@code lease_...} rejection, here or at the server), or failed otherwise.
 */
record LeaseOutcomes(long answered, long refused, long failed) {

    static LeaseOutcomes send(Connection client, int requests, int concurrency, Duration timeout) {
        AtomicLong answered = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        Flux.range(0, requests)
            .flatMap(i -> client.requestResponse(Payload.create("r" + i))
                .doOnNext(p -> {
                    p.release();
                    answered.incrementAndGet();
                })
                .onErrorResume(e -> {
                    (e instanceof RejectedException && e.getMessage().startsWith("lease_")
                        ? refused : failed).incrementAndGet();
                    return Mono.empty();
                }), concurrency)
            .then().block(timeout);
        return new LeaseOutcomes(answered.get(), refused.get(), failed.get());
    }
}
