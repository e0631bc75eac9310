package dev.sluice.core;

import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.SignalType;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * One server's capacity leased to all of its connections together: {@code allowedRequests} per {@code ttl} in all,
 * however many proxies or clients ask for leases, so that scaling out the tier in front of a server does not
 * multiply its load. At the start of each period the capacity is split among the connections: a quarter evenly,
 * the rest by what each used of its last lease (one that used all of it counts as wanting half as much again), each
 * share rounded down, so the leases out at once never add up to more than the capacity. A connection that joins
 * mid-period gets what is left unleased at once (often nothing), and its share from the next period on.
 *
 * <p>Use one instance per server, {@link #join()} once per leasing connection (in the server's
 * {@link ServerLeaseConfigurer}), and {@link #dispose()} it with the server. Thread-safe.
 */
public final class SharedLeases implements Disposable {

    /** The part of the capacity split evenly, so a connection that used little can still grow. */
    private static final double EVEN_PART = 0.25;
    /** How much more than its lease a connection that used all of it is taken to want. */
    private static final double FULL_USE_WANT = 1.5;

    private final int capacity;
    private final Duration ttl;
    private final Supplier<Duration> untilFirstPeriod;
    private final Scheduler scheduler;
    private final List<Share> shares = new ArrayList<>();
    private Disposable periods;
    private boolean disposed;

    private SharedLeases(int capacity, Duration ttl, Supplier<Duration> untilFirstPeriod, Scheduler scheduler) {
        this.capacity = capacity;
        this.ttl = ttl;
        this.untilFirstPeriod = untilFirstPeriod;
        this.scheduler = scheduler;
    }

    /** {@code allowedRequests} per {@code ttl} for all connections together; periods start with the first join. */
    public static SharedLeases of(int allowedRequests, Duration ttl) {
        return of(allowedRequests, ttl, null);
    }

    /**
     * As {@link #of(int, Duration)}, the periods lined up with something of the caller's (a service's own windows,
     * say): at the first join, {@code untilFirstPeriod} says how long until the first period starts (&gt;= 0); each
     * next one starts a ttl later. Null: a ttl after the first join.
     */
    public static SharedLeases of(int allowedRequests, Duration ttl, Supplier<Duration> untilFirstPeriod) {
        return of(allowedRequests, ttl, untilFirstPeriod, Schedulers.parallel());
    }

    /** As {@link #of(int, Duration, Supplier)}, periods timed on {@code scheduler} (a virtual one in tests). */
    static SharedLeases of(int allowedRequests, Duration ttl, Supplier<Duration> untilFirstPeriod,
                           Scheduler scheduler) {
        Lease.of(ttl, allowedRequests); // validates both
        if (ttl.isZero()) {
            throw new IllegalArgumentException("ttl must be > 0, got " + ttl);
        }
        return new SharedLeases(allowedRequests, ttl, untilFirstPeriod, scheduler);
    }

    /** A new connection's share: subscribe to its leases once; let it count what the connection uses. */
    public synchronized Share join() {
        Share s = new Share();
        if (disposed) {
            s.leases.tryEmitComplete();
            return s;
        }
        shares.add(s);
        if (periods == null) {
            Duration first = untilFirstPeriod != null ? untilFirstPeriod.get() : ttl;
            if (first == null || first.isNegative()) {
                throw new IllegalStateException("untilFirstPeriod must give a duration >= 0, got " + first);
            }
            periods = Flux.interval(first, ttl, scheduler).subscribe(t -> nextPeriod());
        }
        int leased = 0;
        for (Share other : shares) {
            leased += other.allowed;
        }
        if (capacity - leased > 0) {
            s.grant(capacity - leased);
        }
        return s;
    }

    /** Splits the capacity among the connections for the period starting now and leases each its share. */
    synchronized void nextPeriod() {
        int n = shares.size();
        if (n == 0) {
            return;
        }
        double[] want = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            Share s = shares.get(i);
            int used = s.used.getAndSet(0);
            want[i] = s.allowed > 0 && used >= s.allowed ? used * FULL_USE_WANT : used;
            total += want[i];
        }
        for (int i = 0; i < n; i++) {
            double byUse = total > 0 ? want[i] / total : 1.0 / n;
            shares.get(i).grant((int) (capacity * (EVEN_PART / n + (1 - EVEN_PART) * byUse)));
        }
    }

    private synchronized void leave(Share s) {
        shares.remove(s);
    }

    /** Stops the periods and ends every connection's leases. */
    @Override
    public void dispose() {
        List<Share> ended;
        synchronized (this) {
            if (disposed) {
                return;
            }
            disposed = true;
            if (periods != null) {
                periods.dispose();
            }
            ended = new ArrayList<>(shares);
            shares.clear();
        }
        for (Share s : ended) {
            s.leases.tryEmitComplete();
        }
    }

    @Override
    public synchronized boolean isDisposed() {
        return disposed;
    }

    /** One connection's part of the capacity. */
    public final class Share implements StatsRecorder<Object> {
        private final Sinks.Many<Lease> leases = Sinks.many().replay().latest();
        private final AtomicInteger used = new AtomicInteger();
        /** The allowance of the last lease sent; under the SharedLeases' lock. */
        private int allowed;

        private Share() {
        }

        private void grant(int requests) {
            allowed = requests;
            leases.tryEmitNext(Lease.of(ttl, requests));
        }

        /** The leases to send this connection; ends when it leaves (the subscription is cancelled). */
        public Flux<Lease> leases() {
            return leases.asFlux().doFinally(signal -> leave(this));
        }

        @Override
        public Object onRequestStarted(RequestType type, ByteBuf metadata) {
            return null;
        }

        /** An admitted request used a permit of this connection's lease. */
        @Override
        public void onResponseStarted(RequestType type, Object call, SignalType firstSignal, long latencyNanos,
                                      boolean rejected) {
            if (!rejected) {
                used.incrementAndGet();
            }
        }

        @Override
        public void onResponseTerminated(RequestType type, Object call, SignalType lastSignal) {
        }
    }
}
