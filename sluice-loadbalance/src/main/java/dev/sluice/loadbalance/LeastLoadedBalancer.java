package dev.sluice.loadbalance;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * An {@link RSocket} over a changing set of targets that sends each request where there is most capacity: the
 * connected, non-draining target with the highest {@link RSocket#availability()} (with leases: what is left of
 * its lease). Ties go round-robin. When every target is at about 0 it falls back to round-robin: the request then
 * waits for that target's next lease or is refused, as the connector's {@code leaseWait} says — the balancer does
 * not guess. With {@link Builder#silentAfter}, a target that has stopped answering (no lease left, no keep-alive
 * answered) gets nothing while another target is usable.
 *
 * <p>The set of targets is given once ({@link Builder#build(Collection)}), replaced by {@link #update(Collection)},
 * or followed from a publisher of target lists ({@link Builder#build(Publisher)}), as from a service registry or
 * DNS. Each new set is applied the same way: new keys are connected, missing ones drain and close, kept ones are
 * left alone.
 *
 * <p>Lost targets are reconnected with exponential backoff and take traffic again when they return. A request
 * whose target dies mid-flight fails with that connection's error; it never vanishes. With no target connected,
 * requests fail at once with {@link NoTargetAvailableException}.
 *
 * <p>Thread-safe. The target is chosen when the request method is called.
 *
 * <p>Past 400 lines because its {@link Builder}, whose options are documented where users look for them, lives
 * here with the one type they create.
 */
public final class LeastLoadedBalancer implements RSocket {

    private static final Logger log = LoggerFactory.getLogger(LeastLoadedBalancer.class);

    /** Availability at or below this counts as exhausted. */
    static final double EXHAUSTED = 1e-3;
    private static final TargetSocket[] NONE = new TargetSocket[0];

    private final Function<Target, Mono<Connection>> connect;
    private final Duration minBackoff;
    private final Duration maxBackoff;
    private final Duration drain;
    private final Duration silentAfter;
    private final Scheduler scheduler;
    private final Map<String, TargetSocket> targets = new LinkedHashMap<>();
    private final AtomicInteger next = new AtomicInteger();
    private final Sinks.Empty<Void> closed = Sinks.empty();
    private volatile TargetSocket[] connected = NONE;
    private volatile boolean disposed;
    /** False until the first set of targets arrives, so that an early request's error can say so. */
    private volatile boolean listed;
    /** The subscription to the target lists of {@link Builder#build(Publisher)}; null for a fixed set. */
    private Disposable discovery;

    LeastLoadedBalancer(Function<Target, Mono<Connection>> connect, Duration minBackoff, Duration maxBackoff,
                        Duration drain, Duration silentAfter, Scheduler scheduler) {
        this.connect = connect;
        this.minBackoff = minBackoff;
        this.maxBackoff = maxBackoff;
        this.drain = drain;
        this.silentAfter = silentAfter;
        this.scheduler = scheduler;
    }

    /** A balancer that connects to its targets with {@code connector}. */
    public static Builder builder(RSocketConnector connector) {
        return new Builder(t -> connector.connect(t.transport()));
    }

    /** Configures a balancer. */
    public static final class Builder {
        private final Function<Target, Mono<Connection>> connect;
        private Duration minBackoff = Duration.ofMillis(100);
        private Duration maxBackoff = Duration.ofSeconds(5);
        private Duration drain = Duration.ofSeconds(5);
        private Duration silentAfter;

        Builder(Function<Target, Mono<Connection>> connect) {
            this.connect = connect;
        }

        /**
         * Reconnect delays: from {@code min}, doubling per failure, capped at {@code max} (100 ms, 5 s), with full
         * jitter (Reactor's {@code Retry.backoff(...).jitter(1.0)}): each delay is drawn between {@code min} and
         * twice the step, never above {@code max}.
         */
        public Builder backoff(Duration min, Duration max) {
            if (min == null || max == null || min.isNegative() || min.isZero() || max.compareTo(min) < 0) {
                throw new IllegalArgumentException("backoff needs 0 < min <= max, got min=" + min + ", max=" + max);
            }
            this.minBackoff = min;
            this.maxBackoff = max;
            return this;
        }

        /** How long a removed target's in-flight requests may take to finish (default 5 s). */
        public Builder drainTimeout(Duration drain) {
            if (drain == null || drain.isNegative()) {
                throw new IllegalArgumentException("drainTimeout must be >= 0, got " + drain);
            }
            this.drain = drain;
            return this;
        }

        /**
         * Takes a target out of rotation while it is silent: no lease left (lapsed without renewal, or used up) and
         * no keep-alive answered for {@code silentAfter}, as a stopped or hung server. Other targets then get every
         * request; the silent one is back as soon as it answers a keep-alive or leases again. Give the connector a
         * keep-alive interval well under {@code silentAfter}. Default: off.
         */
        public Builder silentAfter(Duration silentAfter) {
            if (silentAfter == null || silentAfter.isNegative() || silentAfter.isZero()) {
                throw new IllegalArgumentException("silentAfter must be > 0, got " + silentAfter);
            }
            this.silentAfter = silentAfter;
            return this;
        }

        /** Builds the balancer and connects to {@code targets}. */
        public LeastLoadedBalancer build(Collection<Target> targets) {
            LeastLoadedBalancer b = new LeastLoadedBalancer(connect, minBackoff, maxBackoff, drain, silentAfter,
                Schedulers.parallel());
            b.update(targets);
            return b;
        }

        /**
         * Builds a balancer that follows {@code targets}: it subscribes at once, and each list emitted replaces the
         * set as {@link LeastLoadedBalancer#update(Collection)} does (new keys connect, missing ones drain and
         * close, kept ones are left alone).
         *
         * <ul>
         *   <li>Until the first list arrives the balancer has no target: requests fail at once with
         *       {@link NoTargetAvailableException} ("no target list received yet"); they do not wait.</li>
         *   <li>When the publisher completes, the last set stays, as it is: a publisher of one list gives a fixed
         *       set.</li>
         *   <li>When it fails, the last set stays too, and the error is logged once, at WARN; the balancer does not
         *       resubscribe (retry inside the publisher to keep following a source that may fail).</li>
         *   <li>{@link LeastLoadedBalancer#dispose()} cancels the subscription.</li>
         * </ul>
         *
         * <p>Lists may arrive on any thread; they are applied one at a time. {@code update} may still be called:
         * whichever set comes last wins.
         */
        public LeastLoadedBalancer build(Publisher<? extends Collection<Target>> targets) {
            LeastLoadedBalancer b = new LeastLoadedBalancer(connect, minBackoff, maxBackoff, drain, silentAfter,
                Schedulers.parallel());
            b.follow(targets);
            return b;
        }
    }

    /** Applies every list {@code lists} emits until this balancer is disposed. */
    void follow(Publisher<? extends Collection<Target>> lists) {
        // Subscribed outside the lock: a publisher that emits at once calls update, which takes it.
        Disposable d = Flux.from(lists).subscribe(this::update,
            e -> log.warn("target discovery failed, keeping the last {} target(s): {}", targetCount(),
                e.getMessage() != null ? e.getMessage() : e.toString()),
            () -> log.debug("target discovery completed, keeping the last {} target(s)", targetCount()));
        synchronized (this) {
            if (!disposed) {
                discovery = d;
                return;
            }
        }
        d.dispose(); // disposed while subscribing
    }

    private synchronized int targetCount() {
        return targets.size();
    }

    /**
     * Replaces the set of targets: new keys are connected, missing ones drain (in-flight requests finish) and are
     * closed, kept ones are left alone.
     */
    public synchronized void update(Collection<Target> newTargets) {
        if (disposed) {
            return;
        }
        listed = true;
        Set<String> keys = new HashSet<>();
        for (Target t : newTargets) {
            keys.add(t.key());
            if (!targets.containsKey(t.key())) {
                TargetSocket s = new TargetSocket(t, connect, this::refresh, minBackoff, maxBackoff, silentAfter,
                    scheduler);
                targets.put(t.key(), s);
                s.start();
            }
        }
        targets.values().removeIf(s -> {
            if (keys.contains(s.target.key())) {
                return false;
            }
            s.remove(drain);
            return true;
        });
        refresh();
    }

    /** Rebuilds the snapshot of connected targets that request selection reads without locking. */
    private synchronized void refresh() {
        List<TargetSocket> live = new ArrayList<>();
        for (TargetSocket s : targets.values()) {
            if (s.connection() != null) {
                live.add(s);
            }
        }
        connected = live.toArray(NONE);
    }

    /** Keys of the targets connected now. */
    public List<String> connectedTargets() {
        List<String> out = new ArrayList<>();
        for (TargetSocket s : connected) {
            Connection c = s.connection();
            if (usable(c)) {
                out.add(s.target.key());
            }
        }
        return out;
    }

    /**
     * Each target's key with its availability now: what is left of its lease (or 1.0 without leases), 0.0 when it
     * is not connected or draining. In the order the targets were added.
     */
    public synchronized Map<String, Double> availabilityByTarget() {
        Map<String, Double> out = new LinkedHashMap<>();
        for (TargetSocket s : targets.values()) {
            Connection c = s.connection();
            out.put(s.target.key(), usable(c) ? c.availability() : 0.0);
        }
        return out;
    }

    /** Keys of the connected targets found silent (see {@link Builder#silentAfter}) when last asked. */
    public List<String> silentTargets() {
        List<String> out = new ArrayList<>();
        for (TargetSocket s : connected) {
            if (s.liveness.isSilent()) {
                out.add(s.target.key());
            }
        }
        return out;
    }

    /** The connection the next request goes to, or null when none is usable. */
    Connection select() {
        TargetSocket[] live = connected;
        int n = live.length;
        if (n == 0) {
            return null;
        }
        int start = Math.floorMod(next.getAndIncrement(), n);
        Connection best = null;
        double bestAvailability = EXHAUSTED;
        Connection fallback = null;
        Connection silentFallback = null;
        for (int i = 0; i < n; i++) {
            TargetSocket s = live[(start + i) % n];
            Connection c = s.connection();
            if (!usable(c)) {
                continue;
            }
            double a = c.availability();
            if (s.liveness.silent(c, a)) {
                if (silentFallback == null) {
                    silentFallback = c;
                }
                continue;
            }
            if (fallback == null) {
                fallback = c;
            }
            if (a > bestAvailability) {
                best = c;
                bestAvailability = a;
            }
        }
        // Silent targets only when nothing else is usable: the caller's timeout then bounds the wait.
        return best != null ? best : fallback != null ? fallback : silentFallback;
    }

    private static boolean usable(Connection c) {
        return c != null && !c.isDisposed() && !c.isDraining();
    }

    private NoTargetAvailableException noTarget() {
        if (!listed) {
            return new NoTargetAvailableException("no target available: no target list received yet");
        }
        StringBuilder why = new StringBuilder("no target available: ");
        synchronized (this) {
            why.append(targets.size()).append(" target(s), none connected");
            for (TargetSocket s : targets.values()) {
                why.append("; ").append(s.target.key()).append(": ").append(s.lastError());
            }
        }
        return new NoTargetAvailableException(why.toString());
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        Connection c = select();
        if (c == null) {
            payload.release();
            return Mono.error(noTarget());
        }
        return c.fireAndForget(payload);
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        Connection c = select();
        if (c == null) {
            payload.release();
            return Mono.error(noTarget());
        }
        return c.requestResponse(payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        Connection c = select();
        if (c == null) {
            payload.release();
            return Flux.error(noTarget());
        }
        return c.requestStream(payload);
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        Connection c = select();
        if (c == null) {
            return Flux.error(noTarget()); // the payloads were never requested, so none is held
        }
        return c.requestChannel(payloads);
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        Connection c = select();
        if (c == null) {
            payload.release();
            return Mono.error(noTarget());
        }
        return c.metadataPush(payload);
    }

    /** The highest availability among connected targets (0.0 when none). */
    @Override
    public double availability() {
        double best = 0.0;
        for (TargetSocket s : connected) {
            Connection c = s.connection();
            if (usable(c)) {
                best = Math.max(best, c.availability());
            }
        }
        return best;
    }

    @Override
    public Mono<Void> onClose() {
        return closed.asMono();
    }

    /** Closes every target at once (no drain) and cancels the subscription to the target lists, if any. */
    @Override
    public void dispose() {
        Disposable d;
        synchronized (this) {
            if (disposed) {
                return;
            }
            disposed = true;
            for (TargetSocket s : targets.values()) {
                s.remove(Duration.ZERO);
            }
            targets.clear();
            connected = NONE;
            d = discovery;
            discovery = null;
        }
        // Cancelled outside the lock: the publisher's cancel hooks are not ours to run under it.
        if (d != null) {
            d.dispose();
        }
        closed.tryEmitEmpty();
    }

    @Override
    public boolean isDisposed() {
        return disposed;
    }
}
