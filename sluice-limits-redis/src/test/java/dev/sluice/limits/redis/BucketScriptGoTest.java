package dev.sluice.limits.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.limits.redis.internal.BucketScript;
import dev.sluice.limits.redis.internal.ScriptReply;
import dev.sluice.testkit.RedisServerProcess;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The cases of Go's {@code rate/rate_test.go} (golang.org/x/time v0.16.0) run against the bucket script in a real
 * Redis, on Go's time grid ({@code tN = t0 + N·d}, {@code d = 100 ms}) passed as the script's time argument, and the
 * edge cases the Go oracle settled (reference notes §1.7). Reservation instants are compared in whole multiples of
 * {@code d}, as Go does. Go's tests that need {@code SetLimitAt}/{@code SetBurstAt} have no counterpart: the script
 * takes the rate and burst with each call.
 */
class BucketScriptGoTest {

    private static final long D = 100_000;
    private static final long T0 = 1_700_000_000_000_000L;
    private static final long T1 = t(1);
    private static final long T2 = t(2);
    private static final long T3 = t(3);
    private static final long T4 = t(4);
    private static final long T5 = t(5);
    private static final long T9 = t(9);
    private static final long ANY = Long.MAX_VALUE;

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

    private static long t(int n) {
        return T0 + n * D;
    }

    private static long dSince(long tMicros) {
        return (tMicros - T0 + D / 2) / D;
    }

    private static ScriptBucket bucket(double limit, int burst) throws IOException {
        return new ScriptBucket(redis, "go", limit, burst);
    }

    // ---- allow rows: TokensAt(t) must be toks before AllowN(t, n) answers ok

    private record Allow(long t, double toks, int n, boolean ok) {
    }

    private static Allow allow(long t, double toks, int n, boolean ok) {
        return new Allow(t, toks, n, ok);
    }

    private static void run(ScriptBucket b, Allow... rows) {
        for (int i = 0; i < rows.length; i++) {
            Allow row = rows[i];
            assertThat(b.tokensAt(row.t)).as("step %d: TokensAt(t%d)", i, dSince(row.t)).isEqualTo(row.toks);
            assertThat(b.allow(row.t, row.n)).as("step %d: AllowN(t%d, %d)", i, dSince(row.t), row.n)
                    .isEqualTo(row.ok);
        }
    }

    // ---- reserve rows: reserveN(t, n, max) must be ok, and act at act (in multiples of d) when ok

    private static ScriptReply reserve(ScriptBucket b, long t, int n, long act, boolean ok) {
        return reserveMax(b, t, n, act, ok, ANY);
    }

    private static ScriptReply reserveMax(ScriptBucket b, long t, int n, long act, boolean ok, long maxNanos) {
        ScriptReply r = b.reserve(t, n, maxNanos);
        String call = "reserveN(t" + dSince(t) + ", " + n + ", " + maxNanos + ")";
        assertThat(r.ok()).as(call + ".ok").isEqualTo(ok);
        if (ok) {
            long actMicros = Long.parseLong(r.actMicros());
            assertThat(dSince(actMicros)).as(call + " acts at t").isEqualTo(dSince(act));
            assertThat(r.waitNanos()).as(call + " wait").isEqualTo((actMicros - t) * 1000 + r.actNanos());
            assertThat(r.nowMicros()).as(call + " now").isEqualTo(t);
        }
        return r;
    }

    @Test
    @DisplayName("the script Redis runs is the one whose SHA-1 the limiter sends")
    void scriptLoadsUnderItsSha() throws IOException {
        assertThat(redis.command("SCRIPT", "LOAD", BucketScript.SOURCE)).isEqualTo(BucketScript.SHA1);
    }

    @Test
    void limiterBurst1() throws IOException {
        run(bucket(10, 1),
                allow(T0, 1, 1, true),
                allow(T0, 0, 1, false),
                allow(T0, 0, 1, false),
                allow(T1, 1, 1, true),
                allow(T1, 0, 1, false),
                allow(T1, 0, 1, false),
                allow(T2, 1, 2, false), // n > burst
                allow(T2, 1, 1, true),
                allow(T2, 0, 1, false));
    }

    @Test
    void limiterBurst3() throws IOException {
        run(bucket(10, 3),
                allow(T0, 3, 2, true),
                allow(T0, 1, 2, false),
                allow(T0, 1, 1, true),
                allow(T0, 0, 1, false),
                allow(T1, 1, 4, false),
                allow(T2, 2, 1, true),
                allow(T3, 2, 1, true),
                allow(T4, 2, 1, true),
                allow(T4, 1, 1, true),
                allow(T4, 0, 1, false),
                allow(T4, 0, 1, false),
                allow(T9, 3, 3, true),
                allow(T9, 0, 0, true));
    }

    @Test
    void limiterJumpBackwards() throws IOException {
        run(bucket(10, 3),
                allow(T1, 3, 1, true), // start at t1
                allow(T0, 2, 1, true), // jump back to t0, two tokens remain
                allow(T0, 1, 1, true),
                allow(T0, 0, 1, false),
                allow(T0, 0, 1, false),
                allow(T1, 1, 1, true), // got a token
                allow(T1, 0, 1, false),
                allow(T1, 0, 1, false),
                allow(T2, 1, 1, true), // got another token
                allow(T2, 0, 1, false),
                allow(T2, 0, 1, false));
    }

    @Test
    @DisplayName("LongRunningQPS: 5 s at 100/s in 2 ms steps admits between 0.999 of the ideal and the ideal + 1")
    void longRunningQps() throws IOException {
        ScriptBucket b = bucket(100, 100);
        long start = T0;
        long end = T0 + 5_000_000;
        int ok = 0;
        for (long t = start; t < end; t += 2_000) {
            if (b.allow(t, 1)) {
                ok++;
            }
        }
        double ideal = 100 + (end - start) / 1e6 * 100;
        // Go's bounds, truncated to integers as Go's int32 conversions truncate them.
        assertThat(ok).isLessThanOrEqualTo((int) (ideal + 1)).isGreaterThanOrEqualTo((int) (0.999 * ideal));
    }

    @Test
    void simpleReserve() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T0, 2, T0, true);
        reserve(b, T0, 2, T2, true);
        reserve(b, T3, 2, T4, true);
    }

    @Test
    void mix() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T0, 3, T1, false); // should return false because n > burst
        reserve(b, T0, 2, T0, true); // different from simpleReserve (t0 vs t1)
        assertThat(b.allow(T1, 2)).as("AllowN(t1, 2): tokens 1").isFalse();
        reserve(b, T1, 2, T2, true);
        assertThat(b.allow(T1, 1)).as("AllowN(t1, 1): tokens -1").isFalse();
        assertThat(b.allow(T3, 1)).as("AllowN(t3, 1)").isTrue();
    }

    @Test
    void cancelInvalid() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T0, 2, T0, true);
        ScriptReply r = reserve(b, T0, 3, T3, false);
        assertThat(r.actMicros()).as("a reservation that is not OK has nothing to cancel").isNull();
        reserve(b, T0, 2, T2, true); // did not get extra tokens
    }

    @Test
    void cancelLast() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T0, 2, T0, true);
        ScriptReply r = reserve(b, T0, 2, T2, true);
        assertThat(b.cancel(T1, r, 2, 10).ok()).isTrue(); // got 2 tokens back
        reserve(b, T1, 2, T2, true);
    }

    @Test
    void cancelTooLate() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T0, 2, T0, true);
        ScriptReply r = reserve(b, T0, 2, T2, true);
        assertThat(b.cancel(T3, r, 2, 10).ok()).isFalse(); // too late to cancel: no tokens back
        reserve(b, T3, 2, T4, true);
    }

    @Test
    void cancel0Tokens() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T0, 2, T0, true);
        ScriptReply r = reserve(b, T0, 1, T1, true);
        reserve(b, T0, 1, T2, true);
        assertThat(b.cancel(T0, r, 1, 10).ok()).isFalse(); // the later reservation depends on its token
        reserve(b, T0, 1, T3, true);
    }

    @Test
    void cancel1Token() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T0, 2, T0, true);
        ScriptReply r = reserve(b, T0, 2, T2, true);
        reserve(b, T0, 1, T3, true);
        assertThat(b.cancel(T2, r, 2, 10).ok()).isTrue(); // one token back
        reserve(b, T2, 2, T4, true);
    }

    @Test
    void cancelMulti() throws IOException {
        ScriptBucket b = bucket(10, 4);
        reserve(b, T0, 4, T0, true);
        ScriptReply rA = reserve(b, T0, 3, T3, true);
        reserve(b, T0, 1, T4, true);
        ScriptReply rC = reserve(b, T0, 1, T5, true);
        b.cancel(T1, rC, 1, 10); // get 1 token back
        b.cancel(T1, rA, 3, 10); // get 2 tokens back, as tokens(1) are in use by a later reservation
        reserve(b, T1, 3, T5, true);
    }

    @Test
    void reserveJumpBack() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T1, 2, T1, true); // start at t1
        reserve(b, T0, 1, T1, true); // should violate Limit, Burst
        reserve(b, T2, 2, T3, true);
        // burst size is 2, so n=3 always fails, and the state of the limiter should not be changed
        reserve(b, T0, 3, T0, false);
        reserve(b, T2, 1, T4, true);
        // the maxReserve is not enough so it fails, and the state of the limiter should not be changed
        reserveMax(b, T0, 2, T0, false, D * 1000);
        reserve(b, T2, 1, T5, true);
    }

    @Test
    void reserveJumpBackCancel() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T1, 2, T1, true); // start at t1
        ScriptReply r = reserve(b, T1, 2, T3, true);
        reserve(b, T1, 1, T4, true);
        b.cancel(T0, r, 2, 10); // cancel at t0, get 1 token back
        reserve(b, T1, 2, T4, true); // should violate Limit, Burst
    }

    @Test
    void reserveMax() throws IOException {
        ScriptBucket b = bucket(10, 2);
        long maxT = D * 1000;
        reserveMax(b, T0, 2, T0, true, maxT);
        reserveMax(b, T0, 1, T1, true, maxT); // reserve for close future
        reserveMax(b, T0, 1, T2, false, maxT); // time to act too far in the future
    }

    // ---- the edge cases the Go oracle settled

    @Test
    @DisplayName("zero limit: the initial burst, then nothing; a reservation is OK but never comes, and takes")
    void zeroLimit() throws IOException {
        ScriptBucket b = bucket(0, 1);
        assertThat(b.allow(T0, 1)).isTrue();
        assertThat(b.allow(T0, 1)).isFalse();
        ScriptReply r = b.reserve(T9, 1, ANY);
        assertThat(r.ok()).isTrue();
        assertThat(r.waitNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(b.tokensAt(T9)).isEqualTo(-1);
    }

    @Test
    @DisplayName("zero limit and zero burst (Go's zero Limiter): n = 1 refused, n = 0 allowed")
    void zeroValue() throws IOException {
        ScriptBucket b = bucket(0, 0);
        assertThat(b.allow(T0, 1)).isFalse();
        assertThat(b.allow(T0, 0)).isTrue();
    }

    @Test
    @DisplayName("burst 2: two reservations of 2 leave -2 tokens, a 200 ms wait, and AllowN(0) false")
    void negativeTokensRefuseZero() throws IOException {
        ScriptBucket b = bucket(10, 2);
        reserve(b, T0, 2, T0, true);
        ScriptReply r = reserve(b, T0, 2, T2, true);
        assertThat(r.waitNanos()).isEqualTo(200_000_000L);
        assertThat(b.tokensAt(T0)).isEqualTo(-2);
        assertThat(b.allow(T0, 0)).isFalse();
    }

    @Test
    @DisplayName("(10, 1): four reservations at t0 wait 0, 100, 200, 300 ms and leave -3 tokens")
    void queuedReservations() throws IOException {
        ScriptBucket b = bucket(10, 1);
        for (int i = 0; i < 4; i++) {
            assertThat(b.reserve(T0, 1, ANY).waitNanos()).isEqualTo(i * 100_000_000L);
        }
        assertThat(b.tokensAt(T0)).isEqualTo(-3);
    }

    @Test
    @DisplayName("TinyLimit 1e-10: the second allow is refused; a reservation is OK and never comes")
    void tinyLimit() throws IOException {
        ScriptBucket b = bucket(1e-10, 1);
        assertThat(b.allow(T0, 1)).isTrue();
        assertThat(b.allow(T0, 1)).isFalse();
        ScriptReply r = b.reserve(T0, 1, ANY);
        assertThat(r.ok()).isTrue();
        assertThat(r.waitNanos()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    @DisplayName("noTruncationErrors: NewLimiter(0.7692307692307693, 1).Allow() is true")
    void noTruncationErrors() throws IOException {
        assertThat(bucket(0.7692307692307693, 1).allow(T0, 1)).isTrue();
    }
}
