package dev.sluice.loadbalance;

import dev.sluice.core.Connection;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

/**
 * Whether a connected target still answers: a target is <em>silent</em> when its lease has lapsed (or is used up)
 * and it has answered no keep-alive for {@code silentAfter}, as a stopped or hung server does. The balancer sends a
 * silent target nothing while any other target is usable; it is back as soon as it answers a keep-alive or leases
 * again. Each change is logged once. Thread-safe: keep-alive answers arrive on the connection's event loop,
 * {@link #silent} is asked on any thread a request is made on.
 */
final class TargetLiveness {

    private static final Logger log = LoggerFactory.getLogger(TargetLiveness.class);

    private final String key;
    private final long silentAfterNanos;
    private final AtomicBoolean silent = new AtomicBoolean();
    private volatile long lastAnswerNanos;
    private volatile Disposable answers;

    /** {@code silentAfterNanos} 0: never silent. */
    TargetLiveness(String key, long silentAfterNanos) {
        this.key = key;
        this.silentAfterNanos = silentAfterNanos;
    }

    /** Watches {@code c}'s keep-alive answers from now (a new connection starts as answering). */
    void watch(Connection c) {
        stop();
        lastAnswerNanos = System.nanoTime();
        silent.set(false);
        if (silentAfterNanos > 0) {
            answers = c.rtt().subscribe(rtt -> answered(), e -> { });
        }
    }

    void stop() {
        Disposable d = answers;
        if (d != null) {
            d.dispose();
        }
    }

    private void answered() {
        lastAnswerNanos = System.nanoTime();
        if (silent.compareAndSet(true, false)) {
            log.info("target {} answers again: back in rotation", key);
        }
    }

    /** Whether {@code c}, whose availability is {@code availability}, is silent now. */
    boolean silent(Connection c, double availability) {
        if (silentAfterNanos == 0) {
            return false;
        }
        if (availability > LeastLoadedBalancer.EXHAUSTED) {
            // A plain read first: this runs for every request, and a compare-and-set would be a write each time.
            if (silent.get() && silent.compareAndSet(true, false)) {
                log.info("target {} leases again: back in rotation", key);
            }
            return false;
        }
        long quiet = System.nanoTime() - lastAnswerNanos;
        if (quiet <= silentAfterNanos) {
            return false;
        }
        if (!silent.get() && silent.compareAndSet(false, true)) {
            log.warn("target {} is silent: no lease left and no keep-alive answered for {} ms; out of rotation until"
                + " it answers", key, quiet / 1_000_000);
        }
        return true;
    }

    /** Whether the target was found silent when last asked. */
    boolean isSilent() {
        return silent.get();
    }
}
