package dev.sluice.limits.redis.internal;

import java.util.List;

/**
 * What the bucket script answered: the outcome, the wait, the tokens and the instant on Redis's clock.
 *
 * <p>Not part of the API. Immutable.
 *
 * @param ok a reservation: whether it is OK; a cancel: whether tokens were given back; a read: false
 * @param waitNanos a reservation's wait in nanoseconds, {@code Long.MAX_VALUE} if the tokens never come; -1
 *     otherwise
 * @param tokens the tokens after the operation (those available now when a reservation is refused)
 * @param nowMicros the instant Redis decided at: microseconds of its {@code TIME}
 * @param actMicros a granted reservation's instant to act, whole microseconds as the script formatted them (kept
 *     as text so that a cancel hands the script back exactly its own number); null otherwise
 * @param actNanos the nanoseconds (0..999) to add to {@code actMicros}
 */
public record ScriptReply(boolean ok, long waitNanos, double tokens, long nowMicros, String actMicros,
        long actNanos) {

    /** Reads the reply of the {@link BucketScript#RESERVE} operation. */
    public static ScriptReply ofReserve(List<?> reply) {
        check(reply, 6);
        boolean ok = asLong(reply.get(0)) == 1;
        long wait = asLong(reply.get(1));
        if (ok && wait < 0) {
            wait = Long.MAX_VALUE;
        }
        return new ScriptReply(ok, ok ? wait : -1, asDouble(reply.get(2)), asLong(reply.get(3)),
                ok ? reply.get(4).toString() : null, asLong(reply.get(5)));
    }

    /** Reads the reply of the {@link BucketScript#CANCEL} or {@link BucketScript#TOKENS} operation. */
    public static ScriptReply ofOther(List<?> reply) {
        check(reply, 3);
        return new ScriptReply(asLong(reply.get(0)) == 1, -1, asDouble(reply.get(1)), asLong(reply.get(2)),
                null, 0);
    }

    private static void check(List<?> reply, int size) {
        if (reply == null || reply.size() != size) {
            throw new IllegalStateException("bucket script reply: expected " + size + " elements, got " + reply);
        }
    }

    private static long asLong(Object o) {
        return o instanceof Number ? ((Number) o).longValue() : Long.parseLong(o.toString());
    }

    private static double asDouble(Object o) {
        return o instanceof Number ? ((Number) o).doubleValue() : Double.parseDouble(o.toString());
    }
}
