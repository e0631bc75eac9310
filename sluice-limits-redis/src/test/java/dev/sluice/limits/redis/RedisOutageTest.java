package dev.sluice.limits.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.limits.RateLimitedException;
import dev.sluice.limits.RateLimiter;
import dev.sluice.testkit.RedisServerProcess;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/**
 * {@link RedisRateLimiter} when Redis is killed, hung, or not there yet: the {@link FailurePolicy} decides, the
 * decision says so, a hung Redis is given up on exactly at the timeout (on virtual time), and the limiter recovers
 * when Redis comes back.
 */
class RedisOutageTest {

    private static final Duration BLOCK = Duration.ofSeconds(10);

    private final List<RedisRateLimiter> limiters = new ArrayList<>();
    private RedisServerProcess redis;

    @BeforeEach
    void startRedis() throws Exception {
        RedisServerProcess.assumeInstalled();
        redis = RedisServerProcess.start();
    }

    @AfterEach
    void stopRedis() {
        limiters.forEach(RedisRateLimiter::close);
        if (redis != null) {
            redis.close();
        }
    }

    private RedisRateLimiter limiter(RedisRateLimiter.Builder builder) {
        // Each limiter with Lettuce threads of its own: they stop with it, reconnect attempts to a dead Redis included.
        RedisRateLimiter limiter = builder.redis(redis.uri()).build();
        limiters.add(limiter);
        return limiter;
    }

    private static Decision decide(RedisRateLimiter limiter) {
        Decision d = limiter.allowN("outage", 1).block(BLOCK);
        assertThat(d).isNotNull();
        return d;
    }

    @Test
    @DisplayName("fail open: with Redis killed, every decision allows, flagged degraded, and is counted")
    void killedFailOpen() throws Exception {
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(0.001, 1));
        assertThat(limiter.failurePolicy()).as("the default").isEqualTo(FailurePolicy.FAIL_OPEN);
        assertThat(decide(limiter).degraded()).isFalse();
        assertThat(decide(limiter).allowed()).as("Redis refuses: the burst is spent").isFalse();
        redis.kill();
        for (int i = 0; i < 5; i++) {
            Decision d = decide(limiter);
            assertThat(d.degraded()).as("decision %d: %s", i, d).isTrue();
            assertThat(d.allowed()).isTrue();
            assertThat(d.delayNanos()).isZero();
            assertThat(d.tokens()).isNaN();
            assertThat(d.failure()).isNotNull();
        }
        StepVerifier.create(limiter.waitN("outage", 1, Duration.ZERO)).verifyComplete();
        assertThat(limiter.degradedDecisions()).isEqualTo(6);
    }

    @Test
    @DisplayName("fail closed: with Redis killed, every decision refuses, flagged degraded; Wait fails")
    void killedFailClosed() throws Exception {
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(1000, 10)
                .failurePolicy(FailurePolicy.FAIL_CLOSED));
        assertThat(decide(limiter).allowed()).isTrue();
        redis.kill();
        for (int i = 0; i < 5; i++) {
            Decision d = decide(limiter);
            assertThat(d.degraded()).as("decision %d: %s", i, d).isTrue();
            assertThat(d.allowed()).isFalse();
            assertThat(d.delayNanos()).isEqualTo(RateLimiter.INF_DURATION);
        }
        StepVerifier.create(limiter.waitN("outage", 1, Duration.ofSeconds(1)))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RateLimitedException.class)
                        .hasMessageStartingWith("rate limiter unavailable, failing closed: "))
                .verify(BLOCK);
        assertThat(limiter.degradedDecisions()).isEqualTo(6);
    }

    @Test
    @DisplayName("a hung Redis is given up on exactly at the timeout, then the policy decides")
    void hungRedisDecidesAtTheTimeout() throws Exception {
        RecordingScheduler scheduler = new RecordingScheduler();
        Duration timeout = Duration.ofMillis(50);
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(1000, 10).timeout(timeout)
                .failurePolicy(FailurePolicy.FAIL_CLOSED).scheduler(scheduler));
        assertThat(decide(limiter).degraded()).isFalse();
        scheduler.clear();
        redis.pause();
        try {
            CompletableFuture<Decision> decision = limiter.allowN("outage", 1).toFuture();
            assertThat(scheduler.nextDelay()).as("the decision's timer").isEqualTo(timeout.toNanos());
            scheduler.time.advanceTimeBy(timeout.minusNanos(1));
            assertThat(decision).as("Redis is hung: no answer, and not yet the timeout").isNotDone();
            scheduler.time.advanceTimeBy(Duration.ofNanos(1));
            assertThat(decision).isCompleted();
            Decision d = decision.join();
            assertThat(d.degraded()).isTrue();
            assertThat(d.allowed()).isFalse();
            assertThat(d.failure()).isInstanceOf(TimeoutException.class)
                    .hasMessage("redis rate limiter: no answer within timeout PT0.05S");
        } finally {
            redis.resume();
        }
        Decision after = decide(limiter);
        assertThat(after.degraded()).as("Redis answers again: %s", after).isFalse();
        assertThat(after.allowed()).isTrue();
    }

    @Test
    @DisplayName("an unreachable Redis degrades decisions at once, without waiting for the timeout")
    void unreachableDegradesAtOnce() throws Exception {
        redis.kill();
        // Virtual time that never moves: a decision that needed the timeout would never come.
        RecordingScheduler scheduler = new RecordingScheduler();
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(10, 1).scheduler(scheduler));
        for (int i = 0; i < 3; i++) {
            Decision d = decide(limiter);
            assertThat(d.degraded()).as("decision %d: %s", i, d).isTrue();
            assertThat(d.allowed()).isTrue();
            assertThat(d.failure()).isNotInstanceOf(TimeoutException.class);
        }
    }

    @Test
    @DisplayName("the limiter connects once Redis is up, even if it was down when the limiter was built")
    void connectsWhenRedisComesUp() throws Exception {
        redis.kill();
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(1000, 10));
        assertThat(decide(limiter).degraded()).isTrue();
        redis.restart();
        assertThat(awaitRedisDecision(limiter).allowed()).isTrue();
    }

    @Test
    @DisplayName("a server that accepts but never answers holds a connection attempt only for connectTimeout")
    void blackholeDuringConnect() throws Exception {
        redis.kill();
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(1000, 10)
                .connectTimeout(Duration.ofMillis(200)).failurePolicy(FailurePolicy.FAIL_CLOSED));
        Socket held;
        try (ServerSocket hole = new ServerSocket()) {
            hole.setReuseAddress(true);
            hole.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), redis.port()));
            Decision d = decide(limiter);
            assertThat(d.degraded()).as("%s", d).isTrue();
            assertThat(d.allowed()).isFalse();
            hole.setSoTimeout(10_000);
            // Accepted and kept open, never answered: the limiter's handshake hangs on it.
            held = hole.accept();
        }
        try {
            redis.restart();
            // Lettuce's default handshake timeout is a minute; ours gives up after 200 ms and retries after 1 s.
            assertThat(awaitRedisDecision(limiter).allowed()).isTrue();
        } finally {
            held.close();
        }
    }

    @Test
    @DisplayName("the limiter reconnects when a killed Redis restarts")
    void reconnectsAfterRestart() throws Exception {
        RedisRateLimiter limiter = limiter(RedisRateLimiter.builder(1000, 10));
        assertThat(decide(limiter).degraded()).isFalse();
        redis.kill();
        assertThat(decide(limiter).degraded()).isTrue();
        redis.restart();
        assertThat(awaitRedisDecision(limiter).allowed()).isTrue();
    }

    /** The first decision Redis makes, polling every 10 ms for up to 5 s (reconnects retry within 1 s). */
    private static Decision awaitRedisDecision(RedisRateLimiter limiter) throws InterruptedException {
        Decision d = decide(limiter);
        for (int i = 0; i < 500 && d.degraded(); i++) {
            Thread.sleep(10);
            d = decide(limiter);
        }
        assertThat(d.degraded()).as("Redis decides again: %s", d).isFalse();
        return d;
    }
}
