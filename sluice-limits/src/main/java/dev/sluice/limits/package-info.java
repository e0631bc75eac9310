/**
 * Rate limiting with the semantics of Go's {@code golang.org/x/time/rate}: {@link dev.sluice.limits.RateLimiter}, a
 * token bucket with reservations, so that a request that cannot get its token before its deadline fails at once;
 * and {@link dev.sluice.limits.KeyedRateLimiter}, one such bucket per key within a bounded memory.
 *
 * <p>Time is a parameter: every operation has a form that takes {@code nowNanos}, and a short form that reads the
 * limiter's {@link dev.sluice.limits.NanoClock}. Waits are {@code Mono}s timed on a Reactor scheduler, so tests run
 * on virtual time. The machinery lives in {@code dev.sluice.limits.internal}, which is not part of the API.
 */
package dev.sluice.limits;
