package dev.sluice.cli.load.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * The counters and latency histograms of one second, filled concurrently by the sender and the threads that deliver
 * answers. Read only once the {@link Tally} has closed it, when no writer is left inside.
 */
final class Window {

    /** Latencies are recorded in µs with 3 significant digits; the histograms grow to whatever they meet. */
    private static final int SIGNIFICANT_DIGITS = 3;

    final LongAdder sent = new LongAdder();
    final LongAdder responses = new LongAdder();
    final LongAdder rejected = new LongAdder();
    final LongAdder failed = new LongAdder();
    final ConcurrentHashMap<String, LongAdder> responsesByServer = new ConcurrentHashMap<>();
    final ConcurrentHistogram responseMicros = new ConcurrentHistogram(SIGNIFICANT_DIGITS);
    final ConcurrentHistogram rejectionMicros = new ConcurrentHistogram(SIGNIFICANT_DIGITS);

    void response(String server, long latencyMicros) {
        responses.increment();
        responsesByServer.computeIfAbsent(server, k -> new LongAdder()).increment();
        responseMicros.recordValue(latencyMicros);
    }

    void rejection(long latencyMicros) {
        rejected.increment();
        rejectionMicros.recordValue(latencyMicros);
    }
}
