package dev.sluice.micrometer;

import dev.sluice.core.Payload;
import dev.sluice.core.RequestGate;
import dev.sluice.core.RequestType;
import dev.sluice.core.exceptions.RejectedException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import reactor.core.publisher.Mono;

/**
 * A {@link RequestGate} that counts what the gate it wraps decides: allowed at once, delayed then allowed,
 * rejected, or rejected because the limiter could not be asked ({@code rate_limiter_unavailable}).
 */
final class MeteredGate implements RequestGate {

    static final String UNAVAILABLE = "rate_limiter_unavailable";

    private final RequestGate gate;
    private final Counter allowed;
    private final Counter delayed;
    private final Counter rejected;
    private final Counter unavailable;

    MeteredGate(RequestGate gate, MeterRegistry registry, Tags tags) {
        this.gate = gate;
        this.allowed = decision(registry, tags, "allowed");
        this.delayed = decision(registry, tags, "delayed");
        this.rejected = decision(registry, tags, "rejected");
        this.unavailable = decision(registry, tags, "unavailable");
    }

    @Override
    public Mono<Void> admit(RequestType type, Payload request) {
        Mono<Void> decision = gate.admit(type, request);
        if (decision == null) {
            allowed.increment();
            return null;
        }
        return decision
            .doOnSuccess(v -> delayed.increment())
            .doOnError(e -> {
                if (e instanceof RejectedException && UNAVAILABLE.equals(e.getMessage())) {
                    unavailable.increment();
                } else {
                    rejected.increment();
                }
            });
    }

    private static Counter decision(MeterRegistry registry, Tags tags, String decision) {
        return Counter.builder("sluice.rate.limit.decisions")
            .description("decisions of the request gate (rate limiter): allowed at once, delayed then allowed,"
                + " rejected, or refused because the limiter was unavailable")
            .tags(tags).tag("decision", decision)
            .register(registry);
    }
}
