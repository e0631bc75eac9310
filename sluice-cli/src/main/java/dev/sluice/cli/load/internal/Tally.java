package dev.sluice.cli.load.internal;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.SecondStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Counts a load run second by second: each send and each outcome goes into the one-second window of the moment it
 * happened (read from the clock), and the closer turns finished windows into {@link SecondStats} and running
 * totals.
 *
 * <p>Nothing is lost between a window and the next: recording happens inside a {@link WriterReaderPhaser} critical
 * section, and {@link #closeNext()} first moves the lowest open second past the window it closes, then flips the
 * phase, which waits for every writer that entered before — so a writer either finished inside the window being
 * closed, or records into a later one. An outcome is claimed ({@link TrackedRequest#settle()}) inside that same
 * section, so a claimed outcome is always counted before the window it belongs to closes.
 *
 * <p>Thread-safety: {@link #sent()}, {@link #respond}, {@link #reject} and {@link #fail} from any thread, without
 * locks except when a second's first event creates its window or a histogram grows; {@link #closeNext()},
 * {@link #closeRemaining()} and {@link #summary} from one closer thread. Latencies are in microseconds, measured
 * from each request's intended send time.
 */
public final class Tally {

    /** Distinct server keys kept apart; responses from any further server are counted under {@link #OTHER}. */
    static final int MAX_SERVERS = 64;
    /** Distinct failure causes kept apart; further causes are counted under {@link #OTHER}. */
    static final int MAX_CAUSES = 16;
    /** The key for whatever is beyond {@link #MAX_SERVERS} or {@link #MAX_CAUSES}. */
    public static final String OTHER = "(other)";

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final LongSupplier nanoClock;
    private final long startNanos;
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private final ConcurrentHashMap<Integer, Window> open = new ConcurrentHashMap<>();
    private final Set<String> servers = ConcurrentHashMap.newKeySet();
    private final Set<String> causes = ConcurrentHashMap.newKeySet();
    /** Seconds below this are closed: writers record into this second or later. */
    private volatile int firstOpen;

    // Closer-confined.
    private final List<SecondStats> closed = new ArrayList<>();
    private final Map<String, Long> serverTotals = new TreeMap<>();
    private final Map<String, Long> causeTotals = new TreeMap<>();
    private final Histogram responseTotal = new Histogram(3);
    private final Histogram rejectionTotal = new Histogram(3);
    private long sentTotal;
    private long responsesTotal;
    private long rejectedTotal;
    private long failedTotal;

    /**
     * @param nanoClock the clock events are timed with (monotonic, ns)
     * @param startNanos when second 0 starts on that clock
     */
    public Tally(LongSupplier nanoClock, long startNanos) {
        this.nanoClock = nanoClock;
        this.startNanos = startNanos;
    }

    /** Counts one request sent now. */
    public void sent() {
        long token = phaser.writerCriticalSectionEnter();
        try {
            windowAt(nanoClock.getAsLong()).sent.increment();
        } finally {
            phaser.writerCriticalSectionExit(token);
        }
    }

    /**
     * Counts {@code request}'s answer from {@code server} now, unless its outcome was already counted.
     *
     * @return whether this call counted it
     */
    public boolean respond(TrackedRequest request, String server) {
        long token = phaser.writerCriticalSectionEnter();
        try {
            if (!request.settle()) {
                return false;
            }
            long now = nanoClock.getAsLong();
            windowAt(now).response(bounded(servers, MAX_SERVERS, server), micros(now - request.intendedNanos()));
            return true;
        } finally {
            phaser.writerCriticalSectionExit(token);
        }
    }

    /** Counts {@code request}'s ERROR[REJECTED] now, unless its outcome was already counted; true if this did. */
    public boolean reject(TrackedRequest request) {
        long token = phaser.writerCriticalSectionEnter();
        try {
            if (!request.settle()) {
                return false;
            }
            long now = nanoClock.getAsLong();
            windowAt(now).rejection(micros(now - request.intendedNanos()));
            return true;
        } finally {
            phaser.writerCriticalSectionExit(token);
        }
    }

    /** Counts {@code request} as failed for {@code cause} now, unless its outcome was already counted. */
    public boolean fail(TrackedRequest request, String cause) {
        long token = phaser.writerCriticalSectionEnter();
        try {
            if (!request.settle()) {
                return false;
            }
            windowAt(nanoClock.getAsLong()).failure(bounded(causes, MAX_CAUSES, cause));
            return true;
        } finally {
            phaser.writerCriticalSectionExit(token);
        }
    }

    /** The second {@link #closeNext()} closes. */
    public int nextToClose() {
        return firstOpen;
    }

    /** When second {@code second} ends on the clock, ns. */
    public long endNanos(int second) {
        return startNanos + (second + 1L) * NANOS_PER_SECOND;
    }

    /**
     * Closes the lowest open second and returns it. Call it once the clock has passed {@link #endNanos} of that
     * second; called earlier, events of the rest of that second are counted in the next one.
     */
    public SecondStats closeNext() {
        int second = firstOpen;
        phaser.readerLock();
        try {
            firstOpen = second + 1;
            phaser.flipPhase();
        } finally {
            phaser.readerUnlock();
        }
        Window w = open.remove(second);
        SecondStats stats = w == null ? emptySecond(second) : fold(second, w);
        closed.add(stats);
        return stats;
    }

    /**
     * Closes every second up to the last one that holds events (none if no open second does); call it when every
     * request has settled, to end the run.
     */
    public List<SecondStats> closeRemaining() {
        int last = firstOpen - 1;
        for (Integer s : open.keySet()) {
            last = Math.max(last, s);
        }
        List<SecondStats> out = new ArrayList<>();
        while (firstOpen <= last) {
            out.add(closeNext());
        }
        return out;
    }

    /** Requests counted as sent in the closed seconds. */
    public long sentTotal() {
        return sentTotal;
    }

    /** The run's summary from the closed seconds. */
    public LoadSummary summary(int rate, Duration duration, int payloadSize, double achievedRate,
                               long maxSendLagMicros) {
        return new LoadSummary(rate, duration, payloadSize, sentTotal, responsesTotal, rejectedTotal, failedTotal,
            serverTotals, causeTotals, latency(responseTotal), latency(rejectionTotal), achievedRate,
            maxSendLagMicros, closed);
    }

    private SecondStats fold(int second, Window w) {
        long sent = w.sent.sum();
        long responses = w.responses.sum();
        long rejected = w.rejected.sum();
        long failed = w.failed.sum();
        sentTotal += sent;
        responsesTotal += responses;
        rejectedTotal += rejected;
        failedTotal += failed;
        Map<String, Long> byServer = new HashMap<>();
        w.responsesByServer.forEach((server, n) -> {
            byServer.put(server, n.sum());
            serverTotals.merge(server, n.sum(), Long::sum);
        });
        w.failuresByCause.forEach((cause, n) -> causeTotals.merge(cause, n.sum(), Long::sum));
        responseTotal.add(w.responseMicros);
        rejectionTotal.add(w.rejectionMicros);
        return new SecondStats(second, sent, responses, rejected, failed, inFlight(), byServer,
            latency(w.responseMicros), latency(w.rejectionMicros));
    }

    private SecondStats emptySecond(int second) {
        return new SecondStats(second, 0, 0, 0, 0, inFlight(), Map.of(), Latency.NONE, Latency.NONE);
    }

    private long inFlight() {
        return sentTotal - responsesTotal - rejectedTotal - failedTotal;
    }

    private Window windowAt(long nowNanos) {
        int second = Math.max(secondAt(nowNanos), firstOpen);
        Window w = open.get(second);
        return w != null ? w : open.computeIfAbsent(second, k -> new Window());
    }

    private int secondAt(long nowNanos) {
        long elapsed = nowNanos - startNanos;
        return elapsed <= 0 ? 0 : (int) Math.min(Integer.MAX_VALUE - 1, elapsed / NANOS_PER_SECOND);
    }

    private static long micros(long nanos) {
        return Math.max(0, nanos / 1_000);
    }

    /** {@code key} if it is known or there is room for it in {@code known}, else {@link #OTHER}. */
    private static String bounded(Set<String> known, int max, String key) {
        if (known.contains(key)) {
            return key;
        }
        // Racing threads may each add one past max: the bound is on memory, not an exact count.
        if (known.size() < max) {
            known.add(key);
            return key;
        }
        return OTHER;
    }

    static Latency latency(AbstractHistogram h) {
        return Latency.of(h);
    }
}
