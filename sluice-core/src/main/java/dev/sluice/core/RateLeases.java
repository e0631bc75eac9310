package dev.sluice.core;

import dev.sluice.core.internal.lease.EstimatedTarget;
import dev.sluice.core.internal.lease.RequestSlots;
import dev.sluice.limits.NanoClock;
import dev.sluice.limits.adaptive.CubicLimit;
import dev.sluice.limits.adaptive.Limit;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Scheduler;

/**
 * A lease sender that sizes the requests per second a responder accepts so that responses stay within a latency
 * target: a {@link Limit} counted in requests per second (by default a {@link CubicLimit}), a lease every
 * {@code period} allowing that rate's share of it, and an immediate cut when a request runs late.
 *
 * <p>Where {@link AdaptiveLeases} estimates a concurrency and converts it to a rate with Little's law, this sender
 * moves the rate itself, as a lease is a rate. That suits services whose latency follows the requests of the last
 * moments rather than how many are in flight (a rate limit, a quota, a batch window behind the service), where a
 * concurrency estimate swings between far too little and far too much.
 *
 * <ul>
 *   <li><b>Late is known early.</b> Requests are counted per time slot, an eighth of the target, and a slot
 *       whose requests are still unanswered when the target and one more slot have passed holds late requests:
 *       slots are checked at each new request and each period, so lateness is seen about one target after it
 *       begins, not when the slow answers finally come back. A response slower than the target plus a slot, or
 *       cancelled before any answer, is late too. Lateness finer than a slot is not judged: a service that
 *       answers right at the target, give or take the scheduling of its timers, is not overloaded.</li>
 *   <li><b>The target is a percentile.</b> An overload is more late requests within the last second than the
 *       {@code percentile} allows: 99.5 by default, one in two hundred, half of what a p99 promise tolerates,
 *       because a second's count is a noisy estimate and the requester's own hop adds to the latency it sees.
 *       Below two hundred requests a second, any late request is an overload. The first second of traffic is not
 *       judged: a cold service is slow at first.</li>
 *   <li><b>An overload cuts at once.</b> The limit hears of it as a dropped sample whose {@code inFlight} is the
 *       rate the service took during the second before the late requests started, and a lease of no request
 *       replaces the current one. Then one probe request is leased after {@code probeInterval}, and after twice
 *       as long each time the last one did not come back within the target (up to 16 intervals); once one does, the
 *       periodic leases resume from the limit. Requests that were already late, and probes, count for no new
 *       overload.</li>
 *   <li><b>Without a target</b> ({@link #builder()}), the service's own latency sets one: twice its usual p99
 *       (each second's p99 of the answers within the target, averaged rising fast and falling slowly), at least
 *       5 ms. The first second of answers, light and maybe cold, sets a provisional target of four times its p99;
 *       nothing is judged before it, and past the first second of traffic the limit waits for it. A service whose
 *       latency breaks away at some load (a queue, a quota) is held below that load; one that is merely slower
 *       under load is not held back, and one whose probes, each alone on it, still come back late about four
 *       seconds after the cut has got slower for good: the target becomes twice the fastest of those answers.</li>
 *   <li><b>Otherwise, each period</b> whose lease allowed anything, the limit gets one sample: the period's
 *       slowest response and the rate taken during the last second; the next lease allows
 *       {@code limit * period} requests, the fractions carried over (a limit under one request per period leases
 *       some periods nothing), with a ttl of the period plus a quarter so that leases never leave a gap.</li>
 * </ul>
 *
 * <p>Defaults: period 25 ms, probe interval 50 ms, percentile 99.5, limit {@code CubicLimit} with its defaults, clock
 * {@link NanoClock#SYSTEM}. One instance per connection, confined to its event loop: the recorder's callbacks run
 * there, and {@link #leases} must be given the connection's scheduler. It keeps one small object per slot in
 * which requests start, not one per request.
 *
 * <p>Past 400 lines because its {@link Builder}, whose settings are documented where users look for them, lives
 * here; the slots and the estimate have rooms of their own ({@code internal/lease}).
 */
public final class RateLeases implements StatsRecorder<Object> {

    private static final long SECOND = 1_000_000_000L;
    /** The context of a probe: never counted as an overload, only looked at for coming back in time. */
    private static final Object PROBE = new Object();
    /** The most a probe's interval grows to, in multiples of the first, while probes keep coming back late. */
    private static final int MAX_PROBE_BACKOFF = 16;
    /**
     * Estimated targets: how many probes sent at the longest wait, with probes still coming back late, make the
     * lateness the service's own (about four seconds after the cut with the default interval): shorter, and a
     * service counting per window of a few seconds, late until its window ends, would be mistaken for it.
     */
    private static final int LATE_PROBES_TO_FOLLOW = 4;
    /** The least an estimated target may be: lateness finer than this is the caller's and timers' jitter. */
    private static final long MIN_ESTIMATED_TARGET = 5_000_000L;
    /** A target not known yet: nothing is late. */
    private static final long UNBOUNDED = Long.MAX_VALUE / 4;

    private final Limit limit;
    /** Null with a target given. */
    private final EstimatedTarget estimate;
    /** The target, 0 while an estimated one is not known yet. */
    private long targetNanos;
    private final long periodNanos;
    private final long probeIntervalNanos;
    private long slotNanos;
    private final double lateShare;
    private final NanoClock clock;

    private final RequestSlots slots;

    private int inFlight;
    private long periodWorstNanos;
    private double carry;
    private boolean probing;
    private boolean probeAnswered;
    private boolean cutPending;
    private long firstRequestNanos = Long.MIN_VALUE;
    /** When the periodic leases last began: the first request, or the end of the last probing. */
    private long leasingSinceNanos = Long.MIN_VALUE;
    private long lastProbeNanos;
    private long probeWaitNanos;
    /** The fastest late answer to a probe since the overload, Long.MAX_VALUE if none. */
    private long lateProbeNanos = Long.MAX_VALUE;
    /** Probes sent at the longest wait since the overload while probes came back late. */
    private int lateProbesAtLongestWait;
    private Lease lastLease;

    private FluxSink<Lease> sink;
    private Scheduler scheduler;

    private RateLeases(Builder b, Limit limit) {
        this.limit = limit;
        this.periodNanos = b.period.toNanos();
        this.probeIntervalNanos = b.probeInterval.toNanos();
        if (b.target != null) {
            this.estimate = null;
            this.targetNanos = b.target.toNanos();
            this.slotNanos = Math.max(1, targetNanos / 8);
            this.slots = new RequestSlots(slotNanos, targetNanos + slotNanos);
        } else {
            this.estimate = new EstimatedTarget(MIN_ESTIMATED_TARGET);
            this.slotNanos = MIN_ESTIMATED_TARGET / 8;
            this.slots = new RequestSlots(slotNanos, UNBOUNDED);
        }
        this.lateShare = (100 - b.percentile) / 100;
        this.clock = b.clock;
    }

    /** A builder of a sender keeping responses within {@code targetLatency} ({@code > 0}). */
    public static Builder builder(Duration targetLatency) {
        if (targetLatency == null || targetLatency.isNegative() || targetLatency.isZero()) {
            throw new IllegalArgumentException("targetLatency must be > 0, got " + targetLatency);
        }
        return new Builder(targetLatency);
    }

    /** A builder of a sender whose target is estimated from the service's own latency (see above). */
    public static Builder builder() {
        return new Builder(null);
    }

    /**
     * The leases: the first at once, then one each period, and a cut whenever a request runs late, timed on
     * {@code scheduler} (the connection's). Subscribe once.
     */
    public Flux<Lease> leases(Scheduler scheduler) {
        Objects.requireNonNull(scheduler, "scheduler");
        return Flux.create(s -> {
            if (sink != null) {
                s.error(new IllegalStateException("RateLeases.leases() is subscribed to already"));
                return;
            }
            this.sink = s;
            this.scheduler = scheduler;
            Disposable ticks = scheduler.schedulePeriodically(() -> tick(clock.nanoTime()), 0, periodNanos,
                TimeUnit.NANOSECONDS);
            s.onDispose(ticks);
        });
    }

    /** One period's end: a cut that is due, a probe, or the next lease. Package-private for tests. */
    void tick(long nowNanos) {
        if (estimate != null && estimate.roll(nowNanos)) {
            retarget(estimate.targetNanos());
        }
        checkOverdue(nowNanos);
        if (probing) {
            if (!probeAnswered) {
                if (nowNanos - lastProbeNanos >= probeWaitNanos) {
                    if (estimate != null && lateProbeNanos != Long.MAX_VALUE
                        && probeWaitNanos == probeIntervalNanos * MAX_PROBE_BACKOFF
                        && ++lateProbesAtLongestWait >= LATE_PROBES_TO_FOLLOW) {
                        // Probes, each alone on the service, came back late through the backoff and long after: the
                        // service got slower for good, it is not overloaded. An estimated target follows it.
                        retarget(estimate.follow(lateProbeNanos));
                        lateProbeNanos = Long.MAX_VALUE;
                        lateProbesAtLongestWait = 0;
                    }
                    lastProbeNanos = nowNanos;
                    emit(Lease.of(ttl(probeWaitNanos), 1));
                    // A service still late after a probe gets more time before the next (1, 2, 4 ... intervals).
                    probeWaitNanos = Math.min(probeWaitNanos * 2, probeIntervalNanos * MAX_PROBE_BACKOFF);
                }
                return;
            }
            probing = false;
            leasingSinceNanos = nowNanos;
        } else if (lastLease != null && lastLease.allowedRequests() > 0 && !awaitingEstimate(nowNanos)) {
            long taken = slots.ratePerSecond(nowNanos, leasingSinceNanos, periodNanos, false);
            limit.onSample(nowNanos, periodWorstNanos, (int) Math.max(1, Math.min(Integer.MAX_VALUE, taken)), false);
        }
        double allowed = (double) limit.limit() * periodNanos / SECOND + carry;
        int requests = (int) Math.min(Integer.MAX_VALUE, Math.floor(allowed));
        carry = Math.max(0, Math.min(1, allowed - requests));
        emit(Lease.of(ttl(periodNanos + periodNanos / 4), requests));
    }

    private void retarget(long target) {
        targetNanos = target;
        slotNanos = Math.max(1, targetNanos / 8);
        slots.resize(slotNanos, targetNanos + slotNanos);
    }

    /**
     * True past the first second of traffic while an estimated target is not known yet: the limit is not raised
     * then, as a rate that nothing can be judged against would overshoot unseen.
     */
    private boolean awaitingEstimate(long nowNanos) {
        return targetNanos == 0 && firstRequestNanos != Long.MIN_VALUE && nowNanos - firstRequestNanos >= SECOND;
    }

    private void emit(Lease lease) {
        lastLease = lease;
        periodWorstNanos = 0;
        if (sink != null) {
            sink.next(lease);
        }
    }

    private static Duration ttl(long nanos) {
        return Duration.ofMillis(Math.max(1, nanos / 1_000_000L));
    }

    @Override
    public Object onRequestStarted(RequestType type, ByteBuf metadata) {
        inFlight++;
        if (probing) {
            return PROBE;
        }
        long now = clock.nanoTime();
        if (firstRequestNanos == Long.MIN_VALUE) {
            firstRequestNanos = now;
            leasingSinceNanos = now;
        }
        Object slot = slots.started(now);
        checkOverdue(now);
        return slot;
    }

    @Override
    public void onResponseStarted(RequestType type, Object call, SignalType firstSignal, long latencyNanos,
                                  boolean rejected) {
        if (call == PROBE) {
            if (!rejected && firstSignal != SignalType.CANCEL) {
                if (latencyNanos <= targetNanos) {
                    probeAnswered = true;
                } else {
                    lateProbeNanos = Math.min(lateProbeNanos, latencyNanos);
                }
            }
        } else if (rejected) {
            slots.refused(call);
        } else if (type == RequestType.FIRE_AND_FORGET) {
            slots.done(call);
        } else {
            periodWorstNanos = Math.max(periodWorstNanos, latencyNanos);
            if (estimate != null && firstSignal != SignalType.CANCEL) {
                estimate.answered(clock.nanoTime(), latencyNanos);
            }
            if (slots.answered(call, latencyNanos, firstSignal == SignalType.CANCEL)) {
                judge(clock.nanoTime());
            }
        }
    }

    @Override
    public void onResponseTerminated(RequestType type, Object call, SignalType lastSignal) {
        if (inFlight > 0) {
            inFlight--;
        }
    }

    private void checkOverdue(long nowNanos) {
        if (slots.countOverdue(nowNanos)) {
            judge(nowNanos);
        }
    }

    /**
     * An overload is more late requests during the last second than the target's percentile allows. Not judged
     * during the first second of traffic: a cold service (classes loading, code compiling, caches filling) is
     * slow at first, and a limit backed off from those few requests would take long to grow back.
     */
    private void judge(long nowNanos) {
        if (targetNanos == 0 || nowNanos - firstRequestNanos < SECOND) {
            return;
        }
        if (slots.lateOver(nowNanos, lateShare)) {
            overload(nowNanos, answeredInTime(nowNanos));
        }
    }

    /**
     * The requests the service answered in time during the second before lateness began (since the first request,
     * per second, if that was less than a second ago). A pause for probes in that second counts as a pause: a
     * service that counts its requests per window of time has a window's worth in that second, however they came.
     */
    private long answeredInTime(long nowNanos) {
        return slots.ratePerSecond(nowNanos - targetNanos - slotNanos, firstRequestNanos, periodNanos, true);
    }

    /**
     * Too many requests ran late: everything unanswered now is part of this overload and counts for nothing more,
     * the limit backs off from the rate the service {@code answered} in time in the second before, and a lease of
     * nothing goes out.
     */
    private void overload(long nowNanos, long answered) {
        slots.settle();
        if (probing) {
            return;
        }
        limit.onSample(nowNanos, targetNanos, (int) Math.max(1, Math.min(Integer.MAX_VALUE, answered)), true);
        probing = true;
        probeAnswered = false;
        lateProbeNanos = Long.MAX_VALUE;
        lateProbesAtLongestWait = 0;
        lastProbeNanos = nowNanos;
        probeWaitNanos = probeIntervalNanos;
        carry = 0;
        if (!cutPending && scheduler != null) {
            // Not from inside the recorder's callback: the lease in force is being consulted right now.
            cutPending = true;
            scheduler.schedule(() -> {
                cutPending = false;
                if (probing) {
                    emit(Lease.of(ttl(probeWaitNanos), 0));
                }
            });
        }
    }

    /** Requests started and not yet terminated. */
    public int inFlight() {
        return inFlight;
    }

    /** The latency target in force, or null while an estimated one is not known yet. */
    public Duration target() {
        return targetNanos == 0 ? null : Duration.ofNanos(targetNanos);
    }

    /** The limit this sender feeds, in requests per second. */
    public Limit limit() {
        return limit;
    }

    /** The last lease sent, or null before the first. */
    public Lease lastLease() {
        return lastLease;
    }

    /** True from an overload until a probe comes back within the target. */
    public boolean probing() {
        return probing;
    }

    @Override
    public String toString() {
        return "RateLeases(" + limit + ", target " + (estimate == null ? targetNanos / 1_000_000.0 + " ms"
            : targetNanos == 0 ? "not estimated yet" : targetNanos / 1_000_000.0 + " ms (estimated)") + ", last "
            + lastLease
            + (probing ? ", probing)" : ")");
    }

    /** Settings of a {@link RateLeases}; validated when set. */
    public static final class Builder {
        private final Duration target;
        private Limit limit;
        private Duration period = Duration.ofMillis(25);
        private Duration probeInterval = Duration.ofMillis(50);
        private double percentile = 99.5;
        private NanoClock clock = NanoClock.SYSTEM;

        /** {@code target} null: estimated. */
        private Builder(Duration target) {
            this.target = target;
        }

        /** The limit, in requests per second; give each connection its own (default: a new {@link CubicLimit}). */
        public Builder limit(Limit limit) {
            this.limit = Objects.requireNonNull(limit, "limit");
            return this;
        }

        /** How often a lease goes out, between 1 ms and 2^30-1 ms: shorter gives smaller bursts. */
        public Builder period(Duration period) {
            this.period = checkedMillis("period", period);
            return this;
        }

        /** After an overload, how often one probe request is leased until one comes back in time. */
        public Builder probeInterval(Duration interval) {
            this.probeInterval = checkedMillis("probeInterval", interval);
            return this;
        }

        /**
         * The share of responses the target holds for, as a percentile in {@code [50, 100]}: 99.5 (the default)
         * tolerates one late request in two hundred over a second; 100 none.
         */
        public Builder percentile(double percentile) {
            if (!(percentile >= 50 && percentile <= 100)) {
                throw new IllegalArgumentException("percentile must be between 50 and 100, got " + percentile);
            }
            this.percentile = percentile;
            return this;
        }

        /** Where time comes from; a virtual clock in tests. */
        public Builder clock(NanoClock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        public RateLeases build() {
            return new RateLeases(this, limit != null ? limit : CubicLimit.builder().build());
        }

        private static Duration checkedMillis(String name, Duration d) {
            if (d == null || d.toMillis() < 1 || d.toMillis() > (1L << 30) - 1) {
                throw new IllegalArgumentException(name + " must be between 1 ms and 2^30-1 ms, got " + d);
            }
            return d;
        }
    }
}
