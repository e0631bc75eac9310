package dev.sluice.cli.load.internal;

import dev.sluice.cli.load.Latency;
import dev.sluice.cli.load.SecondStats;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Counts a load run second by second: each send and each outcome goes into the one-second window of the moment it
 * happened (read from the clock), and the closer turns finished windows into {@link SecondStats} and running
 * totals. (What became of each request, by the step it was due in, is {@link StepTally}'s; this is the timeline.)
 *
 * <p>Nothing is lost between a window and the next: recording happens inside a {@link WriterReaderPhaser} critical
 * section, and {@link #closeNext()} first moves the lowest open second past the window it closes, then flips the
 * phase, which waits for every writer that entered before — so a writer either finished inside the window being
 * closed, or records into a later one. An outcome is claimed ({@link TrackedRequest#settle()}) inside that same
 * section, so a claimed outcome is always counted before the window it belongs to closes.
 *
 * <p>Thread-safety: {@link #sent()}, {@link #respond}, {@link #reject} and {@link #fail} from any thread, without
 * locks except when a second's first event creates its window or a histogram grows; {@link #closeNext()},
 * {@link #closeRemaining()} and {@link #responsesByServer()} from one closer thread. Latencies are in microseconds,
 * measured from each request's intended send time.
 */
public final class Tally {

    /** Distinct server keys kept apart; responses from any further server are counted under {@link #OTHER}. */
    static final int MAX_SERVERS = 64;
    /** The key for the servers beyond {@link #MAX_SERVERS}. */
    public static final String OTHER = "(other)";

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final LongSupplier nanoClock;
    private final long startNanos;
    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private final ConcurrentHashMap<Integer, Window> open = new ConcurrentHashMap<>();
    private final Set<String> servers = ConcurrentHashMap.newKeySet();
    /** Seconds below this are closed: writers record into this second or later. */
    private volatile int firstOpen;

    // Closer-confined.
    private final Map<String, Long> serverTotals = new TreeMap<>();
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

    /**
     * Counts {@code request} as failed now — an error, a timeout, or given up — unless its outcome was already
     * counted; true if this call counted it.
     */
    public boolean fail(TrackedRequest request) {
        long token = phaser.writerCriticalSectionEnter();
        try {
            if (!request.settle()) {
                return false;
            }
            windowAt(nanoClock.getAsLong()).failed.increment();
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
        return w == null ? emptySecond(second) : fold(second, w);
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

    /** Responses per answering server over the closed seconds, sorted by key. */
    public Map<String, Long> responsesByServer() {
        return Collections.unmodifiableMap(new TreeMap<>(serverTotals));
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
        return new SecondStats(second, sent, responses, rejected, failed, inFlight(), byServer,
            Latency.of(w.responseMicros), Latency.of(w.rejectionMicros));
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
}
