package dev.sluice.micrometer;

import dev.sluice.core.RequestType;
import dev.sluice.core.ResponderMetrics.Outcome;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The per-request meters: {@code sluice.requests} by interaction and outcome, {@code sluice.requests.rejected} by
 * interaction and reason, and the sampled {@code sluice.request.latency} timer. Counts live in one
 * {@link LoopCounts} per thread; the counters sum them when read.
 */
final class RequestMeters {

    /** Refusal reasons kept as tag values; any other message counts as {@code other}, so tags stay bounded. */
    static final List<String> REASONS = List.of("lease_expired", "lease_exhausted", "rate_limited",
        "rate_limiter_unavailable", "too_many_streams", "connection_closing", "other");

    private static final RequestType[] TYPES = RequestType.values();
    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final int OUTCOME_SLOTS = TYPES.length * OUTCOMES.length;
    private static final int SLOTS = OUTCOME_SLOTS + TYPES.length * REASONS.size();

    private final List<LoopCounts> loops = new CopyOnWriteArrayList<>();
    private final ThreadLocal<LoopCounts> mine = ThreadLocal.withInitial(this::newLoop);
    private final Timer[] latency = new Timer[TYPES.length];

    RequestMeters(MeterRegistry registry, Tags common) {
        for (RequestType type : TYPES) {
            Tags interaction = common.and("interaction", tagValue(type));
            for (Outcome outcome : OUTCOMES) {
                int slot = outcomeSlot(type, outcome);
                FunctionCounter.builder("sluice.requests", this, m -> m.sum(slot))
                    .description("requests served, by interaction and how they ended")
                    .tags(interaction.and("outcome", outcome.name().toLowerCase(Locale.ROOT)))
                    .register(registry);
            }
            for (int r = 0; r < REASONS.size(); r++) {
                int slot = reasonSlot(type, r);
                FunctionCounter.builder("sluice.requests.rejected", this, m -> m.sum(slot))
                    .description("requests refused with ERROR[REJECTED], by interaction and reason")
                    .tags(interaction.and("reason", REASONS.get(r)))
                    .register(registry);
            }
            if (type != RequestType.FIRE_AND_FORGET) {
                latency[type.ordinal()] = Timer.builder("sluice.request.latency")
                    .description("from a request's arrival to the first signal of its response; sampled (about"
                        + " one request per millisecond per event loop, every request below that rate)")
                    .tags(interaction)
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofNanos(10_000))
                    .maximumExpectedValue(Duration.ofSeconds(30))
                    .register(registry);
            }
        }
    }

    /** The counts of the calling thread. */
    LoopCounts loop() {
        return mine.get();
    }

    Timer latency(RequestType type) {
        return latency[type.ordinal()];
    }

    static int outcomeSlot(RequestType type, Outcome outcome) {
        return type.ordinal() * OUTCOMES.length + outcome.ordinal();
    }

    static int reasonSlot(RequestType type, String reason) {
        int r = REASONS.indexOf(reason);
        return reasonSlot(type, r < 0 ? REASONS.size() - 1 : r);
    }

    private static int reasonSlot(RequestType type, int reasonIndex) {
        return OUTCOME_SLOTS + type.ordinal() * REASONS.size() + reasonIndex;
    }

    static String tagValue(RequestType type) {
        return type.name().toLowerCase(Locale.ROOT);
    }

    private double sum(int slot) {
        long total = 0;
        for (LoopCounts l : loops) {
            total += l.get(slot);
        }
        return total;
    }

    private LoopCounts newLoop() {
        LoopCounts l = new LoopCounts(Thread.currentThread(), SLOTS);
        loops.add(l);
        return l;
    }
}
