package dev.sluice.limits.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.limits.RateLimitedException;
import dev.sluice.limits.RateLimiter;
import dev.sluice.limits.Reservation;
import dev.sluice.limits.redis.internal.BucketScript;
import dev.sluice.limits.redis.internal.ScriptReply;
import dev.sluice.testkit.RedisServerProcess;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * {@link RedisRateLimiter} against a real Redis on its real clock: its decisions replayed on the local
 * {@link RateLimiter} at the instants Redis decided, the edge values, the key's expiry, the script cache, the
 * waits, and argument checks.
 */
class RedisRateLimiterTest {

    private static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();
    private static final Duration BLOCK = Duration.ofSeconds(10);

    private static RedisServerProcess redis;
    private static ClientResources resources;

    private final List<RedisRateLimiter> limiters = new ArrayList<>();

    @BeforeAll
    static void startRedis() throws Exception {
        if (!RedisServerProcess.installed()) {
            return;
        }
        redis = RedisServerProcess.start();
        resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(2).build();
    }

    @BeforeEach
    void assumeRedis() {
        RedisServerProcess.assumeInstalled();
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (resources != null) {
            resources.shutdown(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @AfterEach
    void closeLimiters() {
        limiters.forEach(RedisRateLimiter::close);
    }

    private RedisRateLimiter limiter(double limit, int burst) {
        return limiter(RedisRateLimiter.builder(limit, burst));
    }

    private RedisRateLimiter limiter(RedisRateLimiter.Builder builder) {
        // A generous timeout: these tests are about Redis's answers, not about its absence.
        RedisRateLimiter limiter = builder.redis(redis.uri()).clientResources(resources)
                .timeout(Duration.ofSeconds(5)).build();
        limiters.add(limiter);
        return limiter;
    }

    private static Decision block(Mono<Decision> decision) {
        Decision d = decision.block(BLOCK);
        assertThat(d).isNotNull();
        assertThat(d.degraded()).as("decided by Redis: %s", d).isFalse();
        return d;
    }

    private static String key(String key) {
        return RedisRateLimiter.DEFAULT_KEY_PREFIX + key;
    }

    private record Held(Reservation local, Decision remote) {
    }

    @Test
    @DisplayName("decisions made on Redis's clock are the local limiter's at the same instants")
    void decisionsMatchLocalLimiterAtRedisTime() {
        double limit = 200;
        int burst = 4;
        RedisRateLimiter limiter = limiter(limit, burst);
        RateLimiter local = RateLimiter.create(limit, burst);
        SplittableRandom random = new SplittableRandom(42);
        List<Held> held = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            int op = random.nextInt(10);
            int n = random.nextInt(burst + 1);
            if (op < 4) {
                Decision d = block(limiter.allowN("replay", n));
                long t = d.redisMicros() * 1000;
                assertThat(d.allowed()).as("step %d: allowN(%d) at %d us", i, n, t).isEqualTo(local.allowN(t, n));
                assertThat(d.tokens()).as("step %d tokens", i).isCloseTo(local.tokensAt(t), Offset.offset(1e-9));
            } else if (op < 8) {
                long maxWait = random.nextInt(3) == 0 ? Long.MAX_VALUE : random.nextLong(30_000_000L);
                Decision d = block(limiter.reserveN("replay", n,
                        maxWait == Long.MAX_VALUE ? FOREVER : Duration.ofNanos(maxWait)));
                long t = d.redisMicros() * 1000;
                Reservation r = local.reserveN(t, n, maxWait);
                assertThat(d.allowed()).as("step %d: reserveN(%d, %d ns)", i, n, maxWait).isEqualTo(r.ok());
                assertThat(d.delayNanos()).as("step %d delay", i).isEqualTo(r.delayFrom(t));
                assertThat(d.tokens()).as("step %d tokens", i).isCloseTo(local.tokensAt(t), Offset.offset(1e-9));
                if (d.allowed()) {
                    held.add(new Held(r, d));
                }
            } else if (!held.isEmpty()) {
                Held h = held.remove(random.nextInt(held.size()));
                ScriptReply reply = h.remote.cancelReply().block(BLOCK);
                if (reply != null) {
                    long t = reply.nowMicros() * 1000;
                    h.local.cancelAt(t);
                    assertThat(reply.tokens()).as("step %d: cancel, tokens after", i)
                            .isCloseTo(local.tokensAt(t), Offset.offset(1e-9));
                }
            }
        }
    }

    @Test
    @DisplayName("the burst is taken, then refused; the refusal says how many tokens there are")
    void burstThenRefused() {
        RedisRateLimiter limiter = limiter(0.001, 3);
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.allow("burst").block(BLOCK)).as("allow %d", i).isTrue();
        }
        Decision refused = block(limiter.allowN("burst", 1));
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.delayNanos()).isEqualTo(RateLimiter.INF_DURATION);
        assertThat(refused.tokens()).isBetween(0.0, 0.01);
        assertThat(refused.cancel().block(BLOCK)).as("a refusal has nothing to give back").isFalse();
    }

    @Test
    @DisplayName("n > burst is refused without asking Redis; n = 0 is allowed until the bucket is negative")
    void nAgainstBurst() throws Exception {
        RedisRateLimiter limiter = limiter(0.001, 3);
        Decision tooMany = limiter.allowN("n", 4).block(BLOCK);
        assertThat(tooMany.allowed()).isFalse();
        assertThat(tooMany.tokens()).isNaN();
        assertThat(redis.command("EXISTS", key("n"))).isEqualTo(0L);
        assertThat(block(limiter.allowN("n", 0)).allowed()).isTrue();
        assertThat(block(limiter.reserveN("n", 3, FOREVER)).allowed()).isTrue();
        Decision queued = block(limiter.reserveN("n", 3, FOREVER));
        assertThat(queued.allowed()).isTrue();
        // Three tokens at 0.001/s: 3000 s, less what accrued since the first reservation.
        assertThat(queued.delayNanos())
                .isBetween(Duration.ofSeconds(2990).toNanos(), Duration.ofSeconds(3000).toNanos());
        assertThat(block(limiter.allowN("n", 0)).allowed()).as("AllowN(0) on a negative bucket").isFalse();
    }

    @Test
    @DisplayName("an infinite limit allows everything, even with burst 0, and never touches Redis")
    void infiniteLimit() throws Exception {
        RedisRateLimiter limiter = limiter(Double.POSITIVE_INFINITY, 0);
        assertThat(limiter.limit()).isEqualTo(RateLimiter.INF);
        assertThat(limiter.allowN("inf", 5).block(BLOCK).allowed()).isTrue();
        Decision d = limiter.reserveN("inf", 100, Duration.ZERO).block(BLOCK);
        assertThat(d.allowed()).isTrue();
        assertThat(d.delayNanos()).isZero();
        StepVerifier.create(limiter.waitN("inf", 3, Duration.ZERO)).verifyComplete();
        StepVerifier.create(limiter.waitN("inf", 3, Duration.ofNanos(-1)))
                .expectErrorMessage("timeout < 0: -1ns").verify(BLOCK);
        assertThat(redis.command("EXISTS", key("inf"))).isEqualTo(0L);
    }

    @Test
    @DisplayName("a zero limit allows the burst, then never; its reservation never comes; its key never expires")
    void zeroLimit() throws Exception {
        RedisRateLimiter limiter = limiter(0, 1);
        assertThat(limiter.allow("zero").block(BLOCK)).isTrue();
        assertThat(limiter.allow("zero").block(BLOCK)).isFalse();
        Decision d = block(limiter.reserveN("zero", 1, FOREVER));
        assertThat(d.allowed()).isTrue();
        assertThat(d.delayNanos()).isEqualTo(RateLimiter.INF_DURATION);
        assertThat(d.tokens()).isEqualTo(-1);
        assertThat(redis.command("PTTL", key("zero"))).isEqualTo(-1L);
        assertThat(d.cancel().block(BLOCK)).as("cancel gives the token back").isTrue();
        assertThat(limiter.tokens("zero").block(BLOCK)).isZero();
        assertThat(d.cancel().block(BLOCK)).as("only once").isFalse();
    }

    @Test
    @DisplayName("the key expires 10 ms after the bucket would be full again")
    void keyExpiresWhenFull() throws Exception {
        RedisRateLimiter slow = limiter(10, 3);
        Decision d = block(slow.allowN("ttl", 1));
        long expected = (long) Math.ceil((3 - d.tokens()) / 10 * 1000) + 10;
        assertThat(expected).isEqualTo(110);
        assertThat((Long) redis.command("PTTL", key("ttl"))).isBetween(1L, expected);

        RedisRateLimiter fast = limiter(1000, 1);
        assertThat(fast.allow("vanish").block(BLOCK)).isTrue();
        assertThat((Long) redis.command("PTTL", key("vanish"))).isBetween(-2L, 11L);
        // Bounded: 200 polls, 10 ms apart, for a key that lives 11 ms.
        Object exists = 1L;
        for (int i = 0; i < 200 && !Long.valueOf(0).equals(exists); i++) {
            Thread.sleep(10);
            exists = redis.command("EXISTS", key("vanish"));
        }
        assertThat(exists).as("the idle key is gone").isEqualTo(0L);
        assertThat(fast.tokens("vanish").block(BLOCK)).as("and reads as a full bucket").isEqualTo(1.0);
    }

    @Test
    @DisplayName("a Redis that lost the script (restart, failover, SCRIPT FLUSH) gets it again by EVAL")
    void noScriptFallsBackToEval() throws Exception {
        RedisRateLimiter limiter = limiter(100, 5);
        assertThat(block(limiter.allowN("flush", 1)).allowed()).isTrue();
        redis.command("SCRIPT", "FLUSH");
        assertThat(redis.command("SCRIPT", "EXISTS", BucketScript.SHA1)).isEqualTo(List.of(0L));
        assertThat(block(limiter.allowN("flush", 1)).allowed()).isTrue();
        assertThat(redis.command("SCRIPT", "EXISTS", BucketScript.SHA1)).isEqualTo(List.of(1L));
    }

    @Test
    @DisplayName("keys are separate buckets under the prefix")
    void keysAreSeparate() throws Exception {
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(0.001, 1).keyPrefix("t:sep:"));
        assertThat(limiter.allow("a").block(BLOCK)).isTrue();
        assertThat(limiter.allow("a").block(BLOCK)).isFalse();
        assertThat(limiter.allow("b").block(BLOCK)).isTrue();
        assertThat(redis.command("EXISTS", "t:sep:a", "t:sep:b")).isEqualTo(2L);
    }

    @Test
    @DisplayName("Wait fails at once, leaving the bucket untouched, when the tokens would come after maxWait")
    void waitTimeout() throws Exception {
        RedisRateLimiter limiter = limiter(10, 3);
        StepVerifier.create(limiter.waitN("wait", 2, Duration.ofMillis(100))).verifyComplete();
        Object last = redis.command("HGET", key("wait"), "last");
        StepVerifier.create(limiter.waitN("wait", 3, Duration.ofMillis(100)))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RateLimitedException.class)
                        .hasMessage("tokens not available within timeout: n=3, timeout=100000000ns"))
                .verify(BLOCK);
        assertThat(redis.command("HGET", key("wait"), "last")).as("bucket untouched").isEqualTo(last);
    }

    @Test
    @DisplayName("Wait for more than the burst, or with a negative maxWait, fails at once")
    void waitRefusals() {
        RedisRateLimiter limiter = limiter(10, 3);
        StepVerifier.create(limiter.waitN("refuse", 4, FOREVER))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RateLimitedException.class)
                        .hasMessage("n > burst: n=4, burst=3"))
                .verify(BLOCK);
        StepVerifier.create(limiter.waitN("refuse", 1, Duration.ofNanos(-1)))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RateLimitedException.class)
                        .hasMessage("timeout < 0: -1ns"))
                .verify(BLOCK);
        assertThat(block(limiter.reserveN("refuse", 1, Duration.ofNanos(-1))).allowed()).isFalse();
    }

    @Test
    @DisplayName("Wait completes once the reservation's delay has passed, timed on the limiter's scheduler")
    void waitCompletesAfterDelay() throws Exception {
        RecordingScheduler scheduler = new RecordingScheduler();
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(0.1, 3).scheduler(scheduler));
        StepVerifier.create(limiter.waitN("delay", 3, Duration.ofSeconds(60))).verifyComplete();
        Mono<Void> wait = limiter.waitN("delay", 1, Duration.ofSeconds(60));
        var done = wait.toFuture();
        long delay = nextTimerOver(scheduler, limiter.timeout());
        // One token at 0.1/s is 10 s, less what accumulated between the two calls.
        assertThat(delay).isBetween(Duration.ofSeconds(9).toNanos(), Duration.ofSeconds(10).toNanos());
        scheduler.time.advanceTimeBy(Duration.ofNanos(delay - 1));
        assertThat(done).isNotDone();
        scheduler.time.advanceTimeBy(Duration.ofNanos(1));
        assertThat(done).isCompleted();
    }

    @Test
    @DisplayName("cancelling a Wait before it completes gives its tokens back")
    void waitCancel() throws Exception {
        RecordingScheduler scheduler = new RecordingScheduler();
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(0.1, 3).scheduler(scheduler));
        StepVerifier.create(limiter.waitN("cancel", 2, Duration.ZERO)).verifyComplete();
        Disposable waiting = limiter.waitN("cancel", 3, Duration.ofSeconds(60)).subscribe();
        nextTimerOver(scheduler, limiter.timeout());
        assertThat(limiter.tokens("cancel").block(BLOCK)).as("three reserved").isLessThan(-1.5);
        waiting.dispose();
        // The cancel is sent without waiting for it: poll, bounded, until Redis has run it.
        double tokens = -2;
        for (int i = 0; i < 200 && tokens < 0; i++) {
            Thread.sleep(10);
            tokens = limiter.tokens("cancel").block(BLOCK);
        }
        assertThat(tokens).as("all three back: one token and what accrued since").isBetween(1.0, 1.5);
    }

    /** The next timer longer than {@code floor}: the decisions' own timeouts are not. */
    private static long nextTimerOver(RecordingScheduler scheduler, Duration floor) throws InterruptedException {
        // Bounded: one timeout timer per call before the wait's timer.
        for (int i = 0; i < 10; i++) {
            Long delay = scheduler.nextDelay();
            assertThat(delay).as("a timer was set").isNotNull();
            if (delay > floor.toNanos()) {
                return delay;
            }
        }
        throw new AssertionError("no timer over " + floor);
    }

    @Test
    @DisplayName("bad arguments are refused with the values quoted")
    void badArguments() {
        assertThatThrownBy(() -> RedisRateLimiter.builder(-1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit < 0 or NaN: -1.0");
        assertThatThrownBy(() -> RedisRateLimiter.builder(Double.NaN, 1)).hasMessage("limit < 0 or NaN: NaN");
        assertThatThrownBy(() -> RedisRateLimiter.builder(1, -2)).hasMessage("burst < 0: -2");
        assertThatThrownBy(() -> RedisRateLimiter.builder(1, 1).timeout(Duration.ZERO))
                .hasMessage("timeout <= 0: PT0S");
        assertThatThrownBy(() -> RedisRateLimiter.builder(1, 1).connectTimeout(Duration.ofMillis(-5)))
                .hasMessage("connectTimeout <= 0: PT-0.005S");
        assertThatThrownBy(() -> RedisRateLimiter.builder(1, 1).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("redis URI not set");
        assertThatThrownBy(() -> RedisRateLimiter.builder(1, 1).redis("http://nope"))
                .isInstanceOf(IllegalArgumentException.class);
        RedisRateLimiter limiter = limiter(1, 1);
        assertThatThrownBy(() -> limiter.allowN("k", -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("n < 0: -1");
        assertThatThrownBy(() -> limiter.reserveN("k", -3, FOREVER)).hasMessage("n < 0: -3");
        assertThatThrownBy(() -> limiter.waitN("k", -4, FOREVER)).hasMessage("n < 0: -4");
        assertThatThrownBy(() -> limiter.allow(null)).isInstanceOf(NullPointerException.class).hasMessage("key");
    }
}
