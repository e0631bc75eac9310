package dev.sluice.limits.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.limits.RateLimiter;
import dev.sluice.limits.Reservation;
import dev.sluice.limits.redis.internal.ScriptReply;
import dev.sluice.testkit.RedisServerProcess;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seeded random sequences of allow, reserve (with no, some or any wait), cancel and tokens, at mostly increasing
 * and sometimes decreasing instants, run on the Redis script and on the local {@link RateLimiter} (itself checked
 * bit for bit against Go): every OK and every wait must be the same to the nanosecond, and the tokens the same to
 * 1e-9. Instants are whole microseconds, as Redis's clock gives them.
 *
 * <p>Why not the tokens to the bit: the script holds instants as doubles of microseconds, exact until 2^53 us
 * (the year 2255). A reservation that waits longer than that (a tiny or zero rate) acts at an instant that is
 * rounded to a few microseconds, and cancelling it restores a rounded token count. Everywhere else the bits are
 * the same.
 */
class BucketScriptReplayTest {

    private static final int OPS = 400;
    private static final Offset<Double> TOKENS = Offset.offset(1e-9);

    private static RedisServerProcess redis;

    @BeforeAll
    static void startRedis() throws Exception {
        if (!RedisServerProcess.installed()) {
            return;
        }
        redis = RedisServerProcess.start();
    }

    @BeforeEach
    void assumeRedis() {
        RedisServerProcess.assumeInstalled();
    }

    @AfterAll
    static void stopRedis() throws Exception {
        if (redis != null) {
            redis.close();
        }
    }

    private record Held(Reservation local, ScriptReply remote, int n) {
    }

    @ParameterizedTest(name = "seed {0}: limit {1}/s, burst {2}")
    @CsvSource({
        "1, 10, 3",
        "2, 425, 10",
        "3, 0.7692307692307693, 1",
        "4, 2.5, 5",
        "5, 0, 2",
        "6, 1e-10, 1",
        "7, 1000000, 4",
        "8, 33.333, 0",
    })
    void scriptMatchesLocalLimiter(long seed, double limit, int burst) throws IOException {
        SplittableRandom random = new SplittableRandom(seed);
        ScriptBucket remote = new ScriptBucket(redis, "replay:" + seed, limit, burst);
        RateLimiter local = RateLimiter.create(limit, burst);
        List<Held> held = new ArrayList<>();
        long t = 1_700_000_000_000_000L + random.nextLong(1_000_000_000L);
        for (int i = 0; i < OPS; i++) {
            // Mostly forward by up to 300 ms, sometimes back by up to 100 ms.
            t += random.nextInt(10) == 0 ? -random.nextLong(100_000) : random.nextLong(300_000);
            long tNanos = t * 1000;
            int op = random.nextInt(10);
            String step = "seed " + seed + " step " + i + " at " + t + " us";
            if (op < 3) {
                int n = random.nextInt(burst + 2);
                assertThat(remote.allow(t, n)).as(step + ": allowN(" + n + ")").isEqualTo(local.allowN(tNanos, n));
            } else if (op < 7) {
                int n = random.nextInt(burst + 2);
                long maxWait = switch (random.nextInt(3)) {
                    case 0 -> 0;
                    case 1 -> random.nextLong(500_000_000L);
                    default -> Long.MAX_VALUE;
                };
                ScriptReply r = remote.reserve(t, n, maxWait);
                Reservation l = local.reserveN(tNanos, n, maxWait);
                String call = step + ": reserveN(" + n + ", " + maxWait + " ns)";
                assertThat(r.ok()).as(call + ".ok").isEqualTo(l.ok());
                if (r.ok()) {
                    assertThat(r.waitNanos()).as(call + " wait").isEqualTo(l.delayFrom(tNanos));
                    held.add(new Held(l, r, n));
                }
                assertThat(r.tokens()).as(call + " tokens").isCloseTo(local.tokensAt(tNanos), TOKENS);
            } else if (op < 9 && !held.isEmpty()) {
                Held h = held.remove(random.nextInt(held.size()));
                ScriptReply r = remote.cancel(t, h.remote, h.n, limit);
                h.local.cancelAt(tNanos);
                assertThat(r.tokens()).as(step + ": cancelAt, tokens after")
                        .isCloseTo(local.tokensAt(tNanos), TOKENS);
            } else {
                assertThat(remote.tokensAt(t)).as(step + ": tokensAt").isCloseTo(local.tokensAt(tNanos), TOKENS);
            }
        }
    }
}
