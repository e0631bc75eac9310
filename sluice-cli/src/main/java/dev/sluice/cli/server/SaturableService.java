package dev.sluice.cli.server;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.ThreadExecutorMap;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import reactor.core.publisher.Mono;

/**
 * The demo's service: its latency grows with the number of requests it received in the current one-second
 * window ({@link ConcurrencyDelay}), so that accepting too much makes everyone slow. Request-response answers,
 * after the delay, with the server's own address so that clients can count per server.
 *
 * <p>Thread-safe (the window counter is guarded by this object; the rate is at most thousands per second).
 */
public final class SaturableService implements RSocket {

    private final ConcurrencyDelay delays;
    private volatile String address;
    private final LongSupplier nanoClock;
    private final SplittableRandom random = new SplittableRandom();
    private long windowStart;
    private long inWindow;
    private volatile double slowdown = 1;

    public SaturableService(ConcurrencyDelay delays, String address, LongSupplier nanoClock) {
        this.delays = delays;
        this.address = address;
        this.nanoClock = nanoClock;
        this.windowStart = nanoClock.getAsLong();
    }

    /** What request-response answers with (the server's address, known once it is bound). */
    public void answerWith(String address) {
        this.address = address;
    }

    /** Makes every delay from now on {@code factor} times as long (1 = as the table says); for the demo. */
    public void slowDown(double factor) {
        if (!(factor >= 1)) {
            throw new IllegalArgumentException("slowdown factor must be >= 1, got " + factor);
        }
        this.slowdown = factor;
    }

    /** How long until the next one-second window starts, in nanoseconds. */
    public synchronized long nanosToNextWindow() {
        long elapsed = nanoClock.getAsLong() - windowStart;
        return 1_000_000_000L - Math.floorMod(elapsed, 1_000_000_000L);
    }

    /** Counts a request in the current window and returns its delay in nanoseconds. */
    synchronized long nextDelayNanos() {
        long now = nanoClock.getAsLong();
        long elapsed = now - windowStart;
        if (elapsed >= 1_000_000_000L) {
            windowStart += elapsed / 1_000_000_000L * 1_000_000_000L;
            inWindow = 0;
        }
        inWindow++;
        long delay = delays.delayNanos(inWindow, random);
        double factor = slowdown;
        return factor == 1 ? delay : (long) (delay * factor);
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        payload.release();
        long delay = nextDelayNanos();
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        if (loop == null) {
            return Mono.delay(Duration.ofNanos(delay)).map(t -> Payload.create(address));
        }
        // On the connection's event loop (where handlers are called): its timer is precise, and the answer is
        // written without a hop from a timer thread, so the measured latency is the service's, not the scheduler's.
        return Mono.create(sink -> {
            ScheduledFuture<?> answer = loop.schedule(() -> sink.success(Payload.create(address)), delay,
                TimeUnit.NANOSECONDS);
            sink.onCancel(() -> answer.cancel(false));
        });
    }
}
