package dev.sluice.core;

import dev.sluice.limits.NanoClock;
import dev.sluice.limits.adaptive.Limit;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.Objects;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Scheduler;

/**
 * A lease sender that sizes each lease from the responder's own latency, so that nobody has to know the right
 * number: a {@link StatsRecorder} feeding a {@link Limit} (the requests the service can have in flight while its
 * latency holds), and the {@code Flux<Lease>} that turns that limit into requests per ttl. Use it through
 * {@link Leases#adaptive}.
 *
 * <p>Each response's first signal is one sample: its latency, the requests in flight, and "dropped" when the
 * latency exceeds the target (if one is set) or the requester cancelled before any answer. Without a target the
 * limit's own notion of normal latency decides ({@link dev.sluice.limits.adaptive.Gradient2Limit} compares with its
 * long-term average). Requests rejected by the lease, and fire-and-forget requests (whose "response" starts before
 * the handler runs), give no sample.
 *
 * <p>Each lease covers one period. With {@code L} the limit and {@code latency} the mean latency of the previous
 * period's responses, Little's law gives the rate the service sustains at that concurrency, {@code L / latency},
 * so the lease allows {@code ceil(L * period / latency)} requests (at least 1, so that samples keep coming). The
 * period is {@code ttlLatencies} mean latencies, within {@code [minTtl, maxTtl]}: short enough that a change
 * takes effect within a few dozen requests' time, long enough that LEASE frames stay rare. The lease's ttl is the
 * period plus a quarter, so a requester never sees a gap between one lease and the next.
 *
 * <p>Shrinking is immediate: a lease is never held above what Little's law gives. Growing is cautious: a lease
 * grows only when the previous one was at least half used (a quiet service does not pile up allowance for a
 * burst), and then by at most {@code maxGrowth} times the previous rate. The first lease, before any sample,
 * allows {@code L} requests per {@code minTtl}, or Little's law at the target latency when one is set.
 *
 * <p>Defaults: no target, ttl latencies 50, min ttl 100 ms, max ttl 1 s, max growth 1.5, clock
 * {@link NanoClock#SYSTEM}.
 *
 * <p>One instance per connection, confined to its event loop: the recorder's callbacks run there, and
 * {@link #leases} must be given the connection's scheduler (as {@link ServerLeaseConfigurer} and
 * {@link ClientLeaseConfigurer} receive it). Subscribe to {@link #leases} once.
 */
public final class AdaptiveLeases implements StatsRecorder<Object> {

    private final Limit limit;
    private final long targetNanos;
    private final int ttlLatencies;
    private final long minTtlNanos;
    private final long maxTtlNanos;
    private final double maxGrowth;
    private final NanoClock clock;

    private int inFlight;
    // The current period: its samples and their summed latency, and the requests the lease accepted.
    private int periodSamples;
    private long periodLatencyNanos;
    private int periodAccepted;
    private long latencyNanos;
    private Lease lastLease;
    private long lastPeriodNanos;

    private AdaptiveLeases(Builder b) {
        this.limit = b.limit;
        this.targetNanos = b.target == null ? 0 : b.target.toNanos();
        this.ttlLatencies = b.ttlLatencies;
        this.minTtlNanos = b.minTtl.toNanos();
        this.maxTtlNanos = b.maxTtl.toNanos();
        this.maxGrowth = b.maxGrowth;
        this.clock = b.clock;
    }

    /** A builder of a sender driven by {@code limit}, which it feeds and reads (give each connection its own). */
    public static Builder builder(Limit limit) {
        return new Builder(limit);
    }

    /**
     * The leases, the first at once and each next one a period later, timed on {@code scheduler} (the
     * connection's). Subscribe once.
     */
    public Flux<Lease> leases(Scheduler scheduler) {
        Objects.requireNonNull(scheduler, "scheduler");
        return Mono.fromSupplier(() -> nextLease(clock.nanoTime()))
            .expand(previous -> Mono.delay(Duration.ofNanos(lastPeriodNanos), scheduler)
                .map(tick -> nextLease(clock.nanoTime())));
    }

    /**
     * Computes the lease that starts a new period at {@code nowNanos} and resets the period's statistics.
     * Package-private so that tests can step through periods without a scheduler.
     */
    Lease nextLease(long nowNanos) {
        if (periodSamples > 0) {
            latencyNanos = Math.max(1, periodLatencyNanos / periodSamples);
        }
        long latency = latencyNanos > 0 ? latencyNanos : targetNanos;
        int concurrency = limit.limit();
        long period;
        double allowed;
        if (latency <= 0) {
            period = minTtlNanos;
            allowed = concurrency;
        } else {
            period = Math.max(minTtlNanos, Math.min(maxTtlNanos, saturatedMultiply(latency, ttlLatencies)));
            allowed = Math.ceil((double) concurrency * period / latency);
            if (lastLease != null) {
                double previousPerPeriod = (double) lastLease.allowedRequests() * period / lastPeriodNanos;
                // Grow only from a lease that was at least half used, and then by maxGrowth at most.
                double cap = periodAccepted * 2 >= lastLease.allowedRequests()
                    ? previousPerPeriod * maxGrowth : previousPerPeriod;
                allowed = Math.min(allowed, Math.ceil(cap));
            }
        }
        int requests = (int) Math.max(1, Math.min(Integer.MAX_VALUE, allowed));
        long ttlMillis = Math.min(Integer.MAX_VALUE, Math.max(1, (period + period / 4) / 1_000_000L));
        Lease lease = Lease.of(Duration.ofMillis(ttlMillis), requests);
        lastLease = lease;
        lastPeriodNanos = period;
        periodSamples = 0;
        periodLatencyNanos = 0;
        periodAccepted = 0;
        return lease;
    }

    private static long saturatedMultiply(long a, int b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }

    @Override
    public Object onRequestStarted(RequestType type, ByteBuf metadata) {
        // Counted before the lease check; a rejected request is released in onResponseTerminated like any other.
        inFlight++;
        periodAccepted++;
        return null;
    }

    @Override
    public void onResponseStarted(RequestType type, Object call, SignalType firstSignal, long latencyNanos,
                                  boolean rejected) {
        if (rejected) {
            periodAccepted--;
            return;
        }
        if (type == RequestType.FIRE_AND_FORGET) {
            return;
        }
        boolean dropped = firstSignal == SignalType.CANCEL || targetNanos > 0 && latencyNanos > targetNanos;
        long latency = Math.max(0, latencyNanos);
        limit.onSample(clock.nanoTime(), latency, Math.max(1, inFlight), dropped);
        periodSamples++;
        periodLatencyNanos += latency;
    }

    @Override
    public void onResponseTerminated(RequestType type, Object call, SignalType lastSignal) {
        if (inFlight > 0) {
            inFlight--;
        }
    }

    /** Requests started and not yet terminated. */
    public int inFlight() {
        return inFlight;
    }

    /** The limit this sender feeds. */
    public Limit limit() {
        return limit;
    }

    /** The last lease computed, or null before the first. */
    public Lease lastLease() {
        return lastLease;
    }

    /** The mean latency of the last period that had responses, in nanoseconds; 0 before any. */
    public long latencyNanos() {
        return latencyNanos;
    }

    @Override
    public String toString() {
        return "AdaptiveLeases(" + limit + ", last " + lastLease + ", latency " + latencyNanos + " ns)";
    }

    /** Settings of an {@link AdaptiveLeases}; validated when set. */
    public static final class Builder {
        /** 2^30-1: the longest period whose ttl (the period plus a quarter) fits a LEASE frame's 2^31-1 ms. */
        private static final long MAX_TTL_MILLIS = (1L << 30) - 1;

        private final Limit limit;
        private Duration target;
        private int ttlLatencies = 50;
        private Duration minTtl = Duration.ofMillis(100);
        private Duration maxTtl = Duration.ofSeconds(1);
        private double maxGrowth = 1.5;
        private NanoClock clock = NanoClock.SYSTEM;

        private Builder(Limit limit) {
            this.limit = Objects.requireNonNull(limit, "limit");
        }

        /**
         * The latency to stay at or under: a response slower than this is a dropped sample for the limit.
         * {@code null} (the default) leaves the judgement to the limit.
         */
        public Builder targetLatency(Duration target) {
            if (target != null && (target.isNegative() || target.isZero())) {
                throw new IllegalArgumentException("targetLatency <= 0: " + target);
            }
            this.target = target;
            return this;
        }

        /** A lease's period in mean latencies, before the ttl bounds apply; {@code >= 1}. */
        public Builder ttlLatencies(int latencies) {
            if (latencies < 1) {
                throw new IllegalArgumentException("ttlLatencies < 1: " + latencies);
            }
            this.ttlLatencies = latencies;
            return this;
        }

        /**
         * The bounds of a lease's period: {@code 1 ms <= min <= max <= 2^30-1 ms}. Why not 2^31-1 ms, the largest
         * ttl a LEASE frame carries: a lease's ttl is its period plus a quarter, which must still fit there; a
         * period of 2^30-1 ms gives a ttl of 1,342,177,278 ms.
         */
        public Builder ttl(Duration min, Duration max) {
            if (min == null || max == null || min.toMillis() < 1 || min.compareTo(max) > 0
                || max.toMillis() > MAX_TTL_MILLIS) {
                throw new IllegalArgumentException("ttl bounds must satisfy 1 ms <= min <= max <= 2^30-1 ms: min="
                    + min + ", max=" + max);
            }
            this.minTtl = min;
            this.maxTtl = max;
            return this;
        }

        /** How many times the previous lease's rate the next may allow at most, {@code > 1}. */
        public Builder maxGrowth(double factor) {
            if (!(factor > 1)) {
                throw new IllegalArgumentException("maxGrowth <= 1: " + factor);
            }
            this.maxGrowth = factor;
            return this;
        }

        /** Where sample times come from; a virtual clock in tests. */
        public Builder clock(NanoClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public AdaptiveLeases build() {
            return new AdaptiveLeases(this);
        }
    }
}
