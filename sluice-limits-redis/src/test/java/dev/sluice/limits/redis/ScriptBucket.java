package dev.sluice.limits.redis;

import dev.sluice.limits.redis.internal.BucketScript;
import dev.sluice.limits.redis.internal.ScriptReply;
import dev.sluice.testkit.RedisServerProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * One bucket of the Redis script driven at instants the test chooses (the script's time argument), so that Go's
 * own table tests and seeded random sequences run on a fixed grid. Instants are microseconds; the key never
 * expires (the TTL runs on Redis's real clock, which these instants are not).
 */
final class ScriptBucket {

    private final RedisServerProcess redis;
    private final String key;
    private final String limit;
    private final String burst;

    ScriptBucket(RedisServerProcess redis, String key, double limit, int burst) throws IOException {
        this.redis = redis;
        this.key = key;
        this.limit = Double.toString(limit);
        this.burst = Integer.toString(burst);
        redis.command("DEL", key);
    }

    /** Go's {@code reserveN(t, n, maxWaitNanos)}; {@code Long.MAX_VALUE} for any wait. */
    ScriptReply reserve(long tMicros, int n, long maxWaitNanos) {
        String wait = maxWaitNanos == Long.MAX_VALUE ? BucketScript.ANY_WAIT : Long.toString(maxWaitNanos);
        return ScriptReply.ofReserve(run(BucketScript.RESERVE, tMicros, Integer.toString(n), wait));
    }

    /** Go's {@code AllowN(t, n)}. */
    boolean allow(long tMicros, int n) {
        return reserve(tMicros, n, 0).ok();
    }

    /** Go's {@code r.CancelAt(t)} for {@code r}, a reservation of {@code n} tokens at the rate {@code rLimit}. */
    ScriptReply cancel(long tMicros, ScriptReply r, int n, double rLimit) {
        return ScriptReply.ofOther(run(BucketScript.CANCEL, tMicros, Integer.toString(n), Double.toString(rLimit),
                r.actMicros(), Long.toString(r.actNanos())));
    }

    /** Go's {@code TokensAt(t)}. */
    double tokensAt(long tMicros) {
        return ScriptReply.ofOther(run(BucketScript.TOKENS, tMicros)).tokens();
    }

    private List<?> run(String op, long tMicros, String... opArgs) {
        String[] command = new String[8 + opArgs.length];
        command[0] = "EVALSHA";
        command[1] = BucketScript.SHA1;
        command[2] = "1";
        command[3] = key;
        command[4] = op;
        command[5] = Long.toString(tMicros);
        command[6] = limit;
        command[7] = burst;
        System.arraycopy(opArgs, 0, command, 8, opArgs.length);
        try {
            Object reply;
            try {
                reply = redis.command(command);
            } catch (IOException e) {
                if (e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
                    throw e;
                }
                redis.command("SCRIPT", "LOAD", BucketScript.SOURCE);
                reply = redis.command(command);
            }
            redis.command("PERSIST", key);
            return (List<?>) reply;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
