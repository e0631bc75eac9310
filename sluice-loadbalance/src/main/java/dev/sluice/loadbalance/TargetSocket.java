package dev.sluice.loadbalance;

import dev.sluice.core.Connection;
import dev.sluice.core.exceptions.InvalidSetupException;
import dev.sluice.core.exceptions.RejectedSetupException;
import dev.sluice.core.exceptions.UnsupportedSetupException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.util.retry.Retry;

/**
 * Keeps one target connected: connects, watches the connection, and reconnects with exponential backoff (with
 * jitter) whenever it is lost, until the target is removed. Tells the balancer when its connection comes or goes,
 * and logs each target lost, unreachable (once per outage, not at every attempt) and connected again. A server
 * that accepts the TCP connection but refuses the SETUP (ERROR[INVALID_SETUP] "lease is not supported", say) is
 * an outage too: one warning, and the same growing backoff as an unreachable one — not a reconnect loop.
 */
final class TargetSocket {

    private static final Logger log = LoggerFactory.getLogger(TargetSocket.class);

    /**
     * Reactor's jitter factor for "full jitter": each delay is drawn uniformly between {@code minBackoff} and twice
     * the exponential step ({@code minBackoff * 2^attempt}), never above {@code maxBackoff}; once the step reaches
     * {@code maxBackoff}, anywhere between the two bounds. Spreads the reconnects of many clients after a server
     * restart as widely as the bounds allow.
     */
    private static final double FULL_JITTER = 1.0;

    /** A connection that lives this long after a SETUP refusal ends the refusals' outage. */
    private static final Duration SETTLED = Duration.ofSeconds(1);

    final Target target;
    final TargetLiveness liveness;
    private final Function<Target, Mono<Connection>> connect;
    private final Runnable changed;
    private final Retry backoff;
    private final Duration minBackoff;
    private final Duration maxBackoff;
    private final Scheduler scheduler;
    /**
     * SETUP refusals in a row: the server accepts the TCP connection, then refuses our SETUP (it does not lease,
     * say). Each counts as a failed attempt, so the wait before the next grows as for an unreachable target.
     */
    private volatile int refusals;
    private volatile Connection connection;
    private volatile boolean removed;
    private volatile Disposable pending;
    /** Whether the current outage was logged: one line per outage, however many attempts it takes. */
    private volatile boolean unreachableLogged;
    private volatile boolean everConnected;
    private volatile String lastError = "not connected yet";

    TargetSocket(Target target, Function<Target, Mono<Connection>> connect, Runnable changed, Duration minBackoff,
                 Duration maxBackoff, Duration silentAfter, Scheduler scheduler) {
        this.target = target;
        this.liveness = new TargetLiveness(target.key(), silentAfter == null ? 0 : silentAfter.toNanos());
        this.connect = connect;
        this.changed = changed;
        // Unbounded attempts: a target is retried until it is removed (pending.dispose() stops the retries).
        this.backoff = Retry.backoff(Long.MAX_VALUE, minBackoff).maxBackoff(maxBackoff).jitter(FULL_JITTER)
            .scheduler(scheduler);
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
        subscribe(attempts(null));
    }

    // Lock order: the balancer calls in while holding its own lock (update, dispose), so nothing here may call
    // back into the balancer (changed.run()) while holding this object's lock.

    /**
     * Connection attempts until one succeeds, {@link #backoff} apart. After a loss ({@code lost} not null) the
     * first attempt also waits a backoff step, as if it had failed: a server that accepts and then closes at once
     * is not called back in a tight loop.
     */
    private Mono<Connection> attempts(Throwable lost) {
        boolean[] skipFirst = {lost != null};
        return Mono.defer(() -> {
            if (skipFirst[0]) {
                skipFirst[0] = false;
                return Mono.<Connection>error(lost);
            }
            return connect.apply(target).doOnError(this::failed);
        }).retryWhen(backoff);
    }

    /** Starts {@code attempts}; not under this object's lock, since a connection made at once calls back out. */
    private void subscribe(Mono<Connection> attempts) {
        if (removed) {
            return;
        }
        Disposable d = attempts.subscribe(this::connected,
            e -> log.warn("stopped reconnecting to target {}: {}", target.key(), e.getMessage()));
        synchronized (this) {
            if (!removed) {
                pending = d;
                return;
            }
        }
        // Removed meanwhile: remove() could not stop these attempts (a connection they made is closed by connected).
        d.dispose();
    }

    private void connected(Connection c) {
        boolean again;
        boolean afterRefusals = refusals > 0;
        synchronized (this) {
            if (removed) {
                c.dispose();
                return;
            }
            connection = c;
            liveness.watch(c);
            again = everConnected;
            everConnected = true;
            if (!afterRefusals) {
                unreachableLogged = false;
            }
        }
        if (afterRefusals) {
            // It may refuse our SETUP again: say it is back only once the connection has lasted.
            log.debug("reconnected to target {} after {} SETUP refusal(s)", target.key(), refusals);
            Mono.delay(SETTLED, scheduler).subscribe(t -> settled(c));
        } else {
            log.info(again ? "target {} is back: connected again" : "connected to target {}", target.key());
        }
        changed.run();
        c.onClose().subscribe(null, e -> lost(c), () -> lost(c));
    }

    /** A connection made after SETUP refusals has lasted: the outage is over. */
    private void settled(Connection c) {
        synchronized (this) {
            if (connection != c || removed) {
                return;
            }
            refusals = 0;
            unreachableLogged = false;
        }
        log.info("target {} is back: connected again", target.key());
    }

    private void failed(Throwable e) {
        lastError = String.valueOf(e.getMessage());
        if (!unreachableLogged && !removed) {
            unreachableLogged = true;
            log.info("target {} unreachable ({}); retrying with backoff", target.key(), lastError);
        } else {
            log.debug("target {} still unreachable: {}", target.key(), lastError);
        }
    }

    private void lost(Connection c) {
        boolean wasCurrent;
        synchronized (this) {
            wasCurrent = connection == c;
            if (wasCurrent) {
                connection = null;
                liveness.stop();
                // The cause says why, e.g. the server refused our SETUP: "lease is not supported".
                Throwable cause = c.closeCause();
                lastError = cause == null ? "connection lost" : "connection lost: " + cause.getMessage();
            }
        }
        if (!wasCurrent || removed) {
            return;
        }
        changed.run();
        if (!refusedSetup(c.closeCause())) {
            refusals = 0;
            log.info("lost target {} ({}); reconnecting", target.key(), lastError);
            subscribe(attempts(new TargetLostException(lastError)));
            return;
        }
        int n = ++refusals;
        if (!unreachableLogged) {
            unreachableLogged = true;
            log.warn("target {} refused the connection at SETUP ({}); retrying with backoff", target.key(),
                lastError);
        } else {
            log.debug("target {} refused the connection at SETUP again ({} in a row)", target.key(), n);
        }
        subscribe(Mono.delay(refusalBackoff(n), scheduler).then(attempts(null)));
    }

    /** Whether the server closed the connection because it refused our SETUP. */
    private static boolean refusedSetup(Throwable cause) {
        return cause instanceof InvalidSetupException || cause instanceof RejectedSetupException
            || cause instanceof UnsupportedSetupException;
    }

    /** The wait after the {@code n}th refusal in a row: the n-th backoff step, with full jitter, as a retry waits. */
    private Duration refusalBackoff(int n) {
        long min = minBackoff.toNanos();
        long max = maxBackoff.toNanos();
        long step = min;
        for (int i = 1; i < n && step < max; i++) {
            step = Math.min(max, step * 2);
        }
        long upper = step >= max / 2 ? max : 2 * step;
        return Duration.ofNanos(upper <= min ? min : ThreadLocalRandom.current().nextLong(min, upper + 1));
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
        liveness.stop();
        if (c != null) {
            c.closeGracefully(drain).subscribe(null, e -> { });
        }
    }

    /** A connection that was lost: the first "failure" of the reconnect attempts that follow it (not logged). */
    private static final class TargetLostException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        TargetLostException(String message) {
            super(message, null, false, false);
        }
    }
}
