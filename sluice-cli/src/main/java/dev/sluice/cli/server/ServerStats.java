package dev.sluice.cli.server;

import dev.sluice.core.RequestType;
import dev.sluice.core.StatsRecorder;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import reactor.core.publisher.SignalType;

/**
 * What a server's responders did, for its once-a-second log line: accepted and rejected requests and the latency
 * of accepted ones per call (HdrHistogram interval recorders, microseconds), the last lease sent and, with adaptive
 * leases, each connection's current limit. Shared by all connections of a server; thread-safe.
 *
 * <p>Every request is counted once, so that {@code accepted + rejected} is the number of requests. Those that
 * reach the service's handler are counted by {@link CountingRSocket}, which sees how they end: ERROR[REJECTED]
 * (the rate limit's {@code rate_limited}) is a rejection, anything else an acceptance. Those the lease refuses
 * never reach the handler: the engine reports them here, as the connection's {@link StatsRecorder}, with
 * {@code rejected} true. Its reports of the other requests are ignored: they are the ones the handler counted, and
 * the engine tells a rate-limit refusal from an answer only by {@code ON_ERROR}, as it does any failure.
 */
public final class ServerStats implements StatsRecorder<RequestType> {

    private final LongAdder accepted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private final Recorder[] latency = new Recorder[RequestType.values().length];
    private final AtomicReference<String> lastLease = new AtomicReference<>("none");
    private final LongAdder leased = new LongAdder();
    /** Each connection's current limit, with adaptive leases; the log shows their sum. */
    private final Set<AtomicInteger> limits = ConcurrentHashMap.newKeySet();
    private volatile String limitAlgorithm;
    private volatile IntSupplier sharedBy;
    /** The last target a connection estimated, in microseconds; -1 with a target given, or none estimated yet. */
    private volatile long estimatedTargetMicros = -1;
    private long loggedAccepted;
    private long loggedRejected;

    public ServerStats() {
        for (int i = 0; i < latency.length; i++) {
            latency[i] = new Recorder(3_600_000_000L, 2);
        }
    }

    /** Remembers the last lease sent, for the log, and counts what it allows. */
    public void leaseSent(int allowed, long ttlMillis) {
        lastLease.set(allowed + " requests / " + ttlMillis + " ms");
        leased.add(allowed);
    }

    /** Requests allowed by all leases sent so far, to all clients together. */
    public long leased() {
        return leased.sum();
    }

    /**
     * The p99 of the request-response latency since the previous call to this or to {@link #sinceLastCall()} (they
     * share the interval), in microseconds; -1 without any.
     */
    public long requestResponseP99Micros() {
        Histogram h = latency[RequestType.REQUEST_RESPONSE.ordinal()].getIntervalHistogram();
        return h.getTotalCount() == 0 ? -1 : h.getValueAtPercentile(99);
    }

    /** Adaptive leases of {@code algorithm}: the log line shows the connections' limits from now on. */
    void adaptive(String algorithm) {
        this.limitAlgorithm = algorithm;
    }

    /** One limit shared by the connections: the log says by how many ({@code connections}) instead of summing. */
    void sharedBy(IntSupplier connections) {
        this.sharedBy = connections;
    }

    /** A connection's rate leases estimated {@code target}; the log shows the last one reported. */
    void estimatedTarget(Duration target) {
        estimatedTargetMicros = target.toNanos() / 1_000;
    }

    /** A connection's limit, starting at {@code initial}: set it as it changes, untrack it when the connection ends. */
    AtomicInteger trackLimit(int initial) {
        AtomicInteger current = new AtomicInteger(initial);
        limits.add(current);
        return current;
    }

    void untrackLimit(AtomicInteger current) {
        limits.remove(current);
    }

    @Override
    public RequestType onRequestStarted(RequestType type, ByteBuf metadata) {
        return type;
    }

    /** A lease refusal is counted; the engine's report of any other request is left to {@link CountingRSocket}. */
    @Override
    public void onResponseStarted(RequestType type, RequestType call, SignalType first, long latencyNanos,
                                  boolean wasRejected) {
        if (wasRejected) {
            rejected.increment();
        }
    }

    @Override
    public void onResponseTerminated(RequestType type, RequestType call, SignalType last) {
    }

    /**
     * A request the handler answered, or that was cancelled before its first signal ({@code latencyNanos} then
     * negative: no latency to record).
     */
    void countAccepted(RequestType type, long latencyNanos) {
        accepted.increment();
        if (latencyNanos >= 0) {
            latency[type.ordinal()].recordValue(Math.min(latencyNanos / 1000, 3_600_000_000L));
        }
    }

    /** A request refused with ERROR[REJECTED] at or behind the handler (the rate limit). Its time is no latency. */
    void countRejected() {
        rejected.increment();
    }

    public long accepted() {
        return accepted.sum();
    }

    public long rejected() {
        return rejected.sum();
    }

    /** One line for the interval since the previous call. */
    public synchronized String sinceLastCall() {
        long a = accepted.sum();
        long r = rejected.sum();
        StringBuilder b = new StringBuilder().append("accepted=").append(a - loggedAccepted)
            .append(" rejected=").append(r - loggedRejected);
        for (RequestType t : RequestType.values()) {
            Histogram h = latency[t.ordinal()].getIntervalHistogram();
            if (h.getTotalCount() > 0) {
                b.append(' ').append(t.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))
                    .append(" p99=").append(String.format(java.util.Locale.ROOT, "%.1fms",
                        h.getValueAtPercentile(99) / 1000.0));
            }
        }
        b.append(" lease=").append(lastLease.get());
        String algorithm = limitAlgorithm;
        if (algorithm != null) {
            b.append(" limit=");
            if (limits.isEmpty()) {
                b.append("none");
            } else {
                b.append(limits.stream().mapToInt(AtomicInteger::get).sum());
            }
            IntSupplier shared = sharedBy;
            b.append(" (").append(algorithm);
            if (shared != null) {
                int sharing = shared.getAsInt();
                if (sharing > 1) {
                    b.append(", shared by ").append(sharing).append(" connections");
                }
            } else if (limits.size() > 1) {
                b.append(", sum over ").append(limits.size()).append(" connections");
            }
            long target = estimatedTargetMicros;
            if (target >= 0) {
                b.append(String.format(java.util.Locale.ROOT, ", target %.1f ms estimated", target / 1000.0));
            }
            b.append(')');
        }
        loggedAccepted = a;
        loggedRejected = r;
        return b.toString();
    }
}
