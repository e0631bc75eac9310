package dev.sluice.cli;

import dev.sluice.limits.redis.RedisRateLimiter;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import reactor.core.Exceptions;

/** Asks Redis, once at startup, whether it answers a {@link RedisRateLimiter}'s script. Stateless. */
final class RedisProbe {

    /** The bucket read: reading changes nothing, whichever key it is. */
    private static final String KEY = RateLimitOptions.GLOBAL_KEY;

    private RedisProbe() {
    }

    /**
     * Null if Redis answers {@code limiter}'s script within {@code patience}; otherwise why not, in one line. A
     * first connection may take longer than one decision's timeout, so timeouts are retried until
     * {@code patience} has passed; any other failure (refused, unknown host, a wrong password) is final.
     */
    static String problem(RedisRateLimiter limiter, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        // Bounded: each attempt ends within the limiter's timeout, which is > 0, and the deadline is finite.
        for (;;) {
            Throwable failure;
            try {
                limiter.tokens(KEY).block();
                return null;
            } catch (RuntimeException e) {
                failure = Exceptions.unwrap(e);
            }
            if (!(failure instanceof TimeoutException) || System.nanoTime() - deadline >= 0) {
                return Problems.describe(failure);
            }
        }
    }
}
