package dev.sluice.limits.redis;

import dev.sluice.limits.RateLimitedException;
import dev.sluice.limits.RateLimiter;
import dev.sluice.limits.redis.internal.BucketScript;
import dev.sluice.limits.redis.internal.DecisionTimeoutException;
import dev.sluice.limits.redis.internal.RedisLink;
import dev.sluice.limits.redis.internal.ScriptReply;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A rate limiter per key shared by every process that uses the same Redis: each key has a token bucket of size
 * {@code burst}, initially full and refilled at {@code limit} tokens per second, with the semantics of
 * {@link RateLimiter} (Go's {@code x/time/rate}), whichever process asks.
 *
 * <p>Each decision is one atomic Lua script in Redis ({@code EVALSHA}, and {@code EVAL} once if Redis does not
 * know it), on Redis's own clock ({@code TIME}), so processes need neither synchronized clocks nor retries. A key's
 * state is Go's: a hash of the tokens and the instant they were computed (in microseconds), plus the latest
 * reservation's instant (for {@link Decision#cancel()}); it expires 10 ms after the bucket would be full again,
 * when forgetting it changes nothing, so idle keys cost no memory. (With a zero limit a used bucket never refills
 * and its key never expires.) Keys are {@code keyPrefix + key}; one key per decision, so Redis Cluster works.
 *
 * <p>Three ways to ask, each for {@code n} tokens of a key and each a lazy {@code Mono}: a decision is made per
 * subscription, and arguments are checked at the call.
 * <ul>
 * <li>{@link #allow} / {@link #allowN}: take the tokens if they are there now, else refuse. Use it to drop or
 *     refuse what exceeds the rate.
 * <li>{@link #reserveN}: promise the tokens if they come within {@code maxWait}; the {@link Decision} says how
 *     long to wait before acting, and can be cancelled.
 * <li>{@link #waitN}: a {@code Mono<Void>} that completes when the caller may act, or fails at once with
 *     {@link RateLimitedException}, leaving the bucket untouched, when the tokens would come later than
 *     {@code maxWait}. Most callers under a deadline want this one.
 * </ul>
 *
 * <p><b>When Redis does not answer</b> (unreachable, an error reply, or no answer within {@link Builder#timeout}
 * (50 ms by default), including the time to connect), the {@link FailurePolicy} decides: fail open (allow, the
 * default) or fail closed (refuse). Such a decision is {@link Decision#degraded() degraded} and counted by
 * {@link #degradedDecisions()}. The connection is opened on first use and reopened when lost; while it is down,
 * decisions degrade at once rather than after the timeout. A decision given up on at the timeout may still be
 * carried out by a slow Redis later, its tokens then taken although the policy decided: an outage never lets more
 * through than the policy says, but may let less through afterwards.
 *
 * <p>Edge values, as {@link RateLimiter}: an {@link RateLimiter#INF infinite} limit allows everything without
 * asking Redis; a limit of 0 allows the initial burst and then nothing; {@code n > burst} is refused (without asking
 * Redis); {@code n = 0} is allowed unless the bucket is negative; {@code n < 0} is an error. Times are Redis's
 * microseconds and waits are computed in nanoseconds as Go's; a wait is counted from when Redis decides, so the
 * round trip adds to it. Every process sharing a prefix must use the same limit and burst: each decision applies
 * the caller's, as if Go's {@code SetLimitAt} ran at the previous decision.
 *
 * <p>Thread-safe; one limiter per process is enough (it pipelines over one connection). Results are signalled on
 * Lettuce's I/O threads or on the limiter's scheduler: do not block in them. {@link #close()} it when done.
 */
public final class RedisRateLimiter implements AutoCloseable {

    /** The default longest time a decision waits for Redis before the {@link FailurePolicy} decides. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);

    /** The default prefix of the keys in Redis. */
    public static final String DEFAULT_KEY_PREFIX = "sluice:rate:";

    /** The default longest time to open a connection to Redis. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(1);

    private final double limit;
    private final int burst;
    private final String limitArg;
    private final String burstArg;
    private final String keyPrefix;
    private final Duration timeout;
    private final FailurePolicy policy;
    private final Scheduler scheduler;
    private final RedisLink link;
    private final String timedOut;
    private final LongAdder degraded = new LongAdder();

    private RedisRateLimiter(Builder b) {
        this.limit = b.limit;
        this.burst = b.burst;
        // Double.toString is the shortest text that reads back as the same double, which is what the script needs.
        this.limitArg = Double.toString(b.limit);
        this.burstArg = Integer.toString(b.burst);
        this.keyPrefix = b.keyPrefix;
        this.timeout = b.timeout;
        this.policy = b.policy;
        this.scheduler = b.scheduler;
        this.link = new RedisLink(b.uri, b.resources, b.connectTimeout);
        this.timedOut = "redis rate limiter: no answer within timeout " + b.timeout;
    }

    /**
     * A builder of a limiter of {@code perSecond} tokens per second and bursts of {@code burst} per key.
     *
     * @throws IllegalArgumentException if {@code perSecond} is negative or NaN, or {@code burst < 0}
     */
    public static Builder builder(double perSecond, int burst) {
        return new Builder(perSecond, burst);
    }

    /** The rate of every key's bucket in tokens per second; {@link RateLimiter#INF} for none. */
    public double limit() {
        return limit;
    }

    /** The burst of every key's bucket. */
    public int burst() {
        return burst;
    }

    /** What decides when Redis does not answer in time. */
    public FailurePolicy failurePolicy() {
        return policy;
    }

    /** The longest time a decision waits for Redis. */
    public Duration timeout() {
        return timeout;
    }

    /** How many decisions the {@link FailurePolicy} made so far, because Redis did not answer in time. */
    public long degradedDecisions() {
        return degraded.sum();
    }

    /** Emits whether one token of {@code key} was there and is now taken; see {@link #allowN}. */
    public Mono<Boolean> allow(String key) {
        return allowN(key, 1).map(Decision::allowed);
    }

    /**
     * Takes {@code n} tokens of {@code key} if they are there now, as {@link RateLimiter#allowN}: a reservation
     * that may not wait at all.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Mono<Decision> allowN(String key, int n) {
        return reserve(key, n, 0);
    }

    /**
     * Reserves {@code n} tokens of {@code key} if they come within {@code maxWait}, as
     * {@link RateLimiter#reserveN(long, int, long)}: the decision says how long to wait before acting. A refusal
     * ({@code n > burst}, a longer wait, a negative {@code maxWait}) changes nothing. A {@code maxWait} of
     * {@code ChronoUnit.FOREVER.getDuration()} (anything of 2^63 ns or more) accepts any wait, as Go's
     * {@code ReserveN}.
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Mono<Decision> reserveN(String key, int n, Duration maxWait) {
        return reserve(key, n, toNanos(maxWait));
    }

    /**
     * Waits for {@code n} tokens of {@code key}, as {@link RateLimiter#waitN(int, Duration)}: completes when they may
     * be used (on the limiter's scheduler, at once if they are there), or fails at once with
     * {@link RateLimitedException}, leaving the bucket untouched, if {@code n > burst}, if {@code timeout} is
     * negative, or if the tokens would come later than {@code timeout}. When Redis does not answer in time, completes
     * at once (fail open) or fails with {@link RateLimitedException} (fail closed). Cancelling during the wait gives
     * the tokens back; cancelling while Redis is deciding does not (they come back with time).
     *
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public Mono<Void> waitN(String key, int n, Duration timeout) {
        Objects.requireNonNull(key, "key");
        checkN(n);
        long maxWaitNanos = toNanos(timeout);
        // Go's order: the burst (unless the limit is infinite), then the deadline, then the reservation.
        if (n > burst && limit != RateLimiter.INF) {
            return Mono.error(new RateLimitedException("n > burst: n=" + n + ", burst=" + burst));
        }
        if (maxWaitNanos < 0) {
            return Mono.error(new RateLimitedException("timeout < 0: " + maxWaitNanos + "ns"));
        }
        if (limit == RateLimiter.INF) {
            return Mono.empty();
        }
        return reserve(key, n, maxWaitNanos).flatMap(d -> {
            if (d.degraded()) {
                return d.allowed() ? Mono.empty() : Mono.error(new RateLimitedException(
                        "rate limiter unavailable, failing closed: " + d.failure()));
            }
            if (!d.allowed()) {
                return Mono.error(new RateLimitedException(
                        "tokens not available within timeout: n=" + n + ", timeout=" + maxWaitNanos + "ns"));
            }
            long delay = d.delayNanos();
            if (delay == 0) {
                return Mono.empty();
            }
            Mono<?> timer = delay == RateLimiter.INF_DURATION
                    ? Mono.never() : Mono.delay(Duration.ofNanos(delay), scheduler);
            // Fire and forget: the canceller has gone, and the tokens come back with time anyway.
            return timer.then().doOnCancel(() -> d.cancel().subscribe(ignored -> { }, ignored -> { }));
        });
    }

    /**
     * Emits the tokens of {@code key} now (the burst for a key Redis does not hold), as
     * {@link RateLimiter#tokensAt}; negative while reservations wait. Changes nothing. Errors if Redis does not
     * answer within the timeout: this is not a decision, no policy applies.
     */
    public Mono<Double> tokens(String key) {
        Objects.requireNonNull(key, "key");
        return run(key, BucketScript.TOKENS)
                .map(reply -> ScriptReply.ofOther(reply).tokens());
    }

    /** Closes the connection to Redis (and Lettuce's threads, unless they were given). Idempotent; blocks. */
    @Override
    public void close() {
        link.close();
    }

    @Override
    public String toString() {
        return "RedisRateLimiter[limit=" + limit + "/s, burst=" + burst + ", prefix=" + keyPrefix + ", timeout="
                + timeout + ", " + policy + "]";
    }

    /** Gives back the tokens of a reservation; see {@link Decision#cancel()}. */
    Mono<ScriptReply> cancel(String key, int n, String actMicros, long actNanos) {
        return run(key, BucketScript.CANCEL, Integer.toString(n), limitArg, actMicros, Long.toString(actNanos))
                .map(ScriptReply::ofOther);
    }

    private Mono<Decision> reserve(String key, int n, long maxWaitNanos) {
        Objects.requireNonNull(key, "key");
        checkN(n);
        if (limit == RateLimiter.INF) {
            return Mono.just(Decision.unlimited());
        }
        if (n > burst || maxWaitNanos < 0) {
            return Mono.just(Decision.refused());
        }
        String wait = maxWaitNanos == Long.MAX_VALUE ? BucketScript.ANY_WAIT : Long.toString(maxWaitNanos);
        return run(key, BucketScript.RESERVE, Integer.toString(n), wait)
                .map(reply -> Decision.ofReply(this, key, n, ScriptReply.ofReserve(reply)))
                .onErrorResume(e -> {
                    degraded.increment();
                    return Mono.just(Decision.degraded(policy, e));
                });
    }

    /** Runs the script's {@code op} on {@code key} at Redis's time, bounded by the timeout. */
    private Mono<List<Object>> run(String key, String op, String... opArgs) {
        String[] args = new String[4 + opArgs.length];
        args[0] = op;
        args[1] = BucketScript.REDIS_TIME;
        args[2] = limitArg;
        args[3] = burstArg;
        System.arraycopy(opArgs, 0, args, 4, opArgs.length);
        return link.eval(new String[] {keyPrefix + key}, args)
                .timeout(timeout, Mono.error(() -> new DecisionTimeoutException(timedOut)), scheduler);
    }

    private static void checkN(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n < 0: " + n);
        }
    }

    private static long toNanos(Duration d) {
        Objects.requireNonNull(d, "maxWait");
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** Settings of a {@link RedisRateLimiter}: the rate and burst, where Redis is, and what to do without it. */
    public static final class Builder {

        private final double limit;
        private final int burst;
        private RedisURI uri;
        private ClientResources resources;
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private Duration timeout = DEFAULT_TIMEOUT;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private FailurePolicy policy = FailurePolicy.FAIL_OPEN;
        private Scheduler scheduler = Schedulers.parallel();

        private Builder(double perSecond, int burst) {
            if (!(perSecond >= 0)) {
                throw new IllegalArgumentException("limit < 0 or NaN: " + perSecond);
            }
            if (burst < 0) {
                throw new IllegalArgumentException("burst < 0: " + burst);
            }
            // Go's infinity is MaxFloat64; an IEEE infinity would make 0 * limit NaN in the script.
            this.limit = perSecond == Double.POSITIVE_INFINITY ? RateLimiter.INF : perSecond;
            this.burst = burst;
        }

        /**
         * Where Redis is, as a URI such as {@code redis://localhost:6379/0} (Lettuce's syntax, which also takes a
         * password, TLS with {@code rediss://}, and Sentinel). Required.
         *
         * @throws IllegalArgumentException if it is not a Redis URI
         */
        public Builder redis(String uri) {
            Objects.requireNonNull(uri, "uri");
            return redis(RedisURI.create(uri));
        }

        /** Where Redis is. Required. */
        public Builder redis(RedisURI uri) {
            this.uri = Objects.requireNonNull(uri, "uri");
            return this;
        }

        /**
         * Lettuce's threads and timers, to share with other clients; the limiter then leaves them running when it
         * closes, and their reconnect delay applies. By default the limiter makes its own: two I/O threads, and
         * reconnects every 1 ms to 1 s.
         */
        public Builder clientResources(ClientResources resources) {
            this.resources = Objects.requireNonNull(resources, "resources");
            return this;
        }

        /** The prefix of every key in Redis; {@link #DEFAULT_KEY_PREFIX} by default. Limiters differ by prefix. */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = Objects.requireNonNull(keyPrefix, "keyPrefix");
            return this;
        }

        /**
         * The longest time a decision waits for Redis (to connect, run the script and answer) before the
         * {@link #failurePolicy} decides; {@link #DEFAULT_TIMEOUT} by default.
         *
         * @throws IllegalArgumentException if it is not positive
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout <= 0: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * The longest time to open a connection; {@link #DEFAULT_CONNECT_TIMEOUT} by default. Decisions do not
         * wait for it beyond their {@link #timeout}.
         *
         * @throws IllegalArgumentException if it is not positive
         */
        public Builder connectTimeout(Duration connectTimeout) {
            Objects.requireNonNull(connectTimeout, "connectTimeout");
            if (connectTimeout.isNegative() || connectTimeout.isZero()) {
                throw new IllegalArgumentException("connectTimeout <= 0: " + connectTimeout);
            }
            this.connectTimeout = connectTimeout;
            return this;
        }

        /** What decides when Redis does not answer in time; {@link FailurePolicy#FAIL_OPEN} by default. */
        public Builder failurePolicy(FailurePolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** The scheduler that times timeouts and waits; {@link Schedulers#parallel()} by default. */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * A limiter with these settings. It connects to Redis on its first decision.
         *
         * @throws IllegalStateException if no {@link #redis} URI was given
         */
        public RedisRateLimiter build() {
            if (uri == null) {
                throw new IllegalStateException("redis URI not set: call redis(\"redis://host:port\")");
            }
            return new RedisRateLimiter(this);
        }
    }
}
