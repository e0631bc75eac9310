package dev.sluice.core.internal.stream;

import dev.sluice.limits.RateLimiter;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * Logs at WARN the failures of handlers whose result goes to nobody: fire-and-forget (with its stream id) and
 * metadata-push. Whether the handler threw or returned a failed {@code Mono}, the line is the same, so that a
 * fire-and-forget request to an unknown RPC route is visible at the default level.
 *
 * <p>At most {@value #BURST} lines at once, then {@value #LINES_PER_SECOND} per second; the next line written says
 * how many failures were left out. Why: the peer decides how many of these requests arrive. A client sending
 * fire-and-forget requests to a wrong route thousands of times a second would otherwise get as many WARN lines
 * with stack traces written, by the event loops that should be serving it and everyone else.
 *
 * <p>Thread-safe: {@link #SHARED} serves every connection of the process. Times are {@code nowNanos} arguments,
 * read by the caller only when a handler has failed.
 */
final class HandlerFailureLog {

    /** Lines written at once before the rate applies. */
    static final int BURST = 10;
    /** Lines per second after the burst. */
    static final int LINES_PER_SECOND = 1;

    static final HandlerFailureLog SHARED =
        new HandlerFailureLog(org.slf4j.LoggerFactory.getLogger(Responders.class));

    private final Logger log;
    private final RateLimiter lines = RateLimiter.create(LINES_PER_SECOND, BURST);
    private final AtomicLong notLogged = new AtomicLong();

    HandlerFailureLog(Logger log) {
        this.log = log;
    }

    /** The fire-and-forget handler of {@code streamId} threw {@code error} or returned it as its result. */
    void fireAndForgetFailed(long nowNanos, int streamId, Throwable error) {
        long left = admit(nowNanos);
        if (left >= 0) {
            log.warn("fire-and-forget handler failed on stream {}{}", streamId, leftOut(left), error);
        }
    }

    /** The metadata-push handler threw {@code error} or returned it as its result. */
    void metadataPushFailed(long nowNanos, Throwable error) {
        long left = admit(nowNanos);
        if (left >= 0) {
            log.warn("metadata-push handler failed{}", leftOut(left), error);
        }
    }

    /** -1 when this failure is not logged, else how many were left out since the previous line. */
    private long admit(long nowNanos) {
        if (!lines.allowN(nowNanos, 1)) {
            notLogged.incrementAndGet();
            return -1;
        }
        return notLogged.getAndSet(0);
    }

    private static String leftOut(long left) {
        return left == 0 ? "" : " (" + left + (left == 1 ? " more handler failure" : " more handler failures")
            + " not logged since the previous line)";
    }
}
