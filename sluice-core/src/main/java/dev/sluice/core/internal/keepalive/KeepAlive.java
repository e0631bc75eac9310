package dev.sluice.core.internal.keepalive;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Keep-alive for one connection: sends KEEPALIVE with the R flag every interval, carrying the send time so that
 * the peer's echo gives a round-trip time; answers the peer's; closes the connection when nothing arrived for the
 * max lifetime. Times come from the connection's clock ({@code nanoClock}), so tests can drive it.
 *
 * <p>Event-loop confined.
 */
public final class KeepAlive implements Runnable {

    /** What keep-alive needs from its connection. */
    public interface Peer {
        /** Writes a KEEPALIVE frame carrying {@code data} (borrowed). */
        void writeKeepAlive(boolean respond, ByteBuf data);

        /** The peer went silent for longer than the max lifetime: fail the connection with {@code message}. */
        void keepAliveExpired(String message);
    }

    private final EventExecutor loop;
    private final LongSupplier clock;
    private final Peer peer;
    private final LongConsumer rtt;
    private final long intervalNanos;
    private final long maxLifetimeNanos;
    private long lastReceivedNanos;
    private ScheduledFuture<?> task;

    /** @param rtt receives each round-trip time measured, in nanoseconds */
    public KeepAlive(EventExecutor loop, LongSupplier clock, Duration interval, Duration maxLifetime, Peer peer,
                     LongConsumer rtt) {
        this.loop = loop;
        this.clock = clock;
        this.peer = peer;
        this.rtt = rtt;
        this.intervalNanos = interval.toNanos();
        this.maxLifetimeNanos = maxLifetime.toNanos();
    }

    /** Starts the timer; the max lifetime counts from now. */
    public void start() {
        lastReceivedNanos = clock.getAsLong();
        task = loop.scheduleAtFixedRate(this, intervalNanos, intervalNanos, TimeUnit.NANOSECONDS);
    }

    public void stop() {
        if (task != null) {
            task.cancel(false);
        }
    }

    /** A KEEPALIVE frame arrived: answer it when it asks, or take its echoed time stamp as a round trip. */
    public void onKeepAlive(boolean respond, ByteBuf buf, int dataOffset, int dataLength) {
        long now = clock.getAsLong();
        lastReceivedNanos = now;
        if (respond) {
            peer.writeKeepAlive(false, buf.slice(dataOffset, dataLength));
        } else if (dataLength == Long.BYTES) {
            long sample = now - buf.getLong(dataOffset);
            if (sample >= 0 && sample <= 2 * maxLifetimeNanos) {
                rtt.accept(sample);
            }
        }
    }

    /** The timer: fail a silent connection, or send the next KEEPALIVE. */
    @Override
    public void run() {
        long now = clock.getAsLong();
        if (now - lastReceivedNanos > maxLifetimeNanos) {
            stop();
            peer.keepAliveExpired("no KEEPALIVE received for "
                + TimeUnit.NANOSECONDS.toMillis(now - lastReceivedNanos) + " ms: keep-alive max lifetime "
                + TimeUnit.NANOSECONDS.toMillis(maxLifetimeNanos) + " ms exceeded");
            return;
        }
        ByteBuf stamp = Unpooled.buffer(Long.BYTES).writeLong(now);
        try {
            peer.writeKeepAlive(true, stamp);
        } finally {
            stamp.release();
        }
    }
}
