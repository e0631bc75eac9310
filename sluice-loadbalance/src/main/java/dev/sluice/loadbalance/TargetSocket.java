package dev.sluice.loadbalance;

import dev.sluice.core.Connection;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Keeps one target connected: connects, watches the connection, and reconnects with exponential backoff (with
 * jitter) whenever it is lost, until the target is removed. Tells the balancer when its connection comes or goes.
 */
final class TargetSocket {

    private static final Logger log = LoggerFactory.getLogger(TargetSocket.class);

    final Target target;
    private final Function<Target, Mono<Connection>> connect;
    private final Runnable changed;
    private final Duration minBackoff;
    private final Duration maxBackoff;
    private final Scheduler scheduler;
    private volatile Connection connection;
    private volatile boolean removed;
    private volatile Disposable pending;
    private int failures;
    private volatile String lastError = "not connected yet";

    TargetSocket(Target target, Function<Target, Mono<Connection>> connect, Runnable changed, Duration minBackoff,
                 Duration maxBackoff, Scheduler scheduler) {
        this.target = target;
        this.connect = connect;
        this.changed = changed;
        this.minBackoff = minBackoff;
        this.maxBackoff = maxBackoff;
        this.scheduler = scheduler;
    }

    /** The live connection, or null while (re)connecting. */
    Connection connection() {
        return connection;
    }

    String lastError() {
        return lastError;
    }

    void start() {
        pending = connect.apply(target).subscribe(this::connected, this::failed);
    }

    // Lock order: the balancer calls in while holding its own lock (update, dispose), so nothing here may call
    // back into the balancer (changed.run()) while holding this object's lock.

    private void connected(Connection c) {
        synchronized (this) {
            if (removed) {
                c.dispose();
                return;
            }
            failures = 0;
            connection = c;
        }
        log.info("connected to target {}", target.key());
        changed.run();
        c.onClose().subscribe(null, e -> lost(c), () -> lost(c));
    }

    private void failed(Throwable e) {
        lastError = String.valueOf(e.getMessage());
        log.debug("cannot connect to target {}: {}", target.key(), e.getMessage());
        scheduleReconnect();
    }

    private void lost(Connection c) {
        boolean wasCurrent;
        synchronized (this) {
            wasCurrent = connection == c;
            if (wasCurrent) {
                connection = null;
                // The cause says why, e.g. the server refused our SETUP: "lease is not supported".
                Throwable cause = c.closeCause();
                lastError = cause == null ? "connection lost" : "connection lost: " + cause.getMessage();
            }
        }
        if (wasCurrent) {
            log.info("lost target {}; reconnecting", target.key());
            changed.run();
        }
        scheduleReconnect();
    }

    private synchronized void scheduleReconnect() {
        if (removed) {
            return;
        }
        long base = minBackoff.toNanos() << Math.min(failures, 20);
        long capped = Math.min(base <= 0 ? Long.MAX_VALUE : base, maxBackoff.toNanos());
        // Full jitter in [capped/2, capped]: spreads the reconnects of many clients after a server restart.
        long delay = capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1);
        failures++;
        pending = Mono.delay(Duration.ofNanos(delay), scheduler).subscribe(t -> start());
    }

    /** Stops reconnecting; the current connection is closed gracefully (in-flight requests finish). */
    synchronized void remove(Duration drain) {
        removed = true;
        Disposable p = pending;
        if (p != null) {
            p.dispose();
        }
        Connection c = connection;
        connection = null;
        if (c != null) {
            c.closeGracefully(drain).subscribe(null, e -> { });
        }
    }
}
