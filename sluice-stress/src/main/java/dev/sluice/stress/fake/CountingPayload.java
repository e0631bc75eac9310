package dev.sluice.stress.fake;

import dev.sluice.core.Payload;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A payload that counts its releases instead of failing on the second: a test reads {@link #releases()} and
 * reports 0 (leaked), 1 (released once, as it must be) or 2 (released twice) as an outcome.
 *
 * <p>Why not {@code Payload.create} over an {@code Unpooled} buffer: a second release throws
 * {@code IllegalReferenceCountException} inside the class under test, which jcstress reports as a test error
 * without saying which interleaving did it. Data and metadata are empty; the fake host never reads them.
 * Thread-safe.
 */
public final class CountingPayload implements Payload {

    private final AtomicInteger releases = new AtomicInteger();
    private final AtomicInteger retains = new AtomicInteger();

    /** How many times {@link #release} was called, net of {@link #retain}s. */
    public int releases() {
        return releases.get() - retains.get();
    }

    @Override
    public ByteBuf data() {
        return Unpooled.EMPTY_BUFFER;
    }

    @Override
    public ByteBuf metadata() {
        return Unpooled.EMPTY_BUFFER;
    }

    @Override
    public boolean hasMetadata() {
        return false;
    }

    @Override
    public int refCnt() {
        return Math.max(0, 1 - releases());
    }

    @Override
    public Payload retain() {
        return retain(1);
    }

    @Override
    public Payload retain(int increment) {
        retains.addAndGet(increment);
        return this;
    }

    @Override
    public Payload touch() {
        return this;
    }

    @Override
    public Payload touch(Object hint) {
        return this;
    }

    @Override
    public boolean release() {
        return release(1);
    }

    @Override
    public boolean release(int decrement) {
        releases.addAndGet(decrement);
        return releases() == 1;
    }
}
