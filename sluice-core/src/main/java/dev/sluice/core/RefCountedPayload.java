package dev.sluice.core;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.IllegalReferenceCountException;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The one {@link Payload} implementation: owns a data buffer and an optional metadata buffer and releases both
 * when its own count reaches zero — or, for a payload received from the network, one reference to the frame's
 * buffer, whose regions it shows as data and metadata.
 *
 * <p>A received payload ({@link #regions}) holds a single reference to the buffer the frame arrived in and makes
 * its data and metadata views only when asked for, as plain slices sharing that reference. A payload that is
 * released unread (a proxy's bookkeeping, a benchmark, a rejected request) thus costs one retain and one release,
 * where a retained slice per region cost a pooled derived buffer and two more atomic operations each.
 *
 * <p><b>Borrowed frames.</b> A payload the engine hands to a handler while the frame's buffer is still its own (the
 * transport lends a frame for the length of its {@code onFrame} call) may <em>borrow</em> the buffer instead
 * ({@link #borrowed}): it takes no reference, and a {@code BORROWED} bit in its count says so. Once the handler
 * returns, the engine {@linkplain #settle settles} it: a payload still held then takes its reference to the buffer
 * at that moment, and one released before (the common case: a handler that answers at once, a subscriber that
 * reads and releases) never touched the buffer's count, two atomic operations per received message fewer. The
 * bit is cleared by a compare-and-set against any release on another thread, so that exactly one of the two decides
 * whether the buffer's reference was taken.
 *
 * <p>Instances are pooled, so that receiving a payload allocates nothing at steady state: a released payload must
 * not be touched again, which the reference count enforces for every accessor. The pool is a plain stack per
 * thread: a payload goes back to the stack of the thread that made it when that thread releases it, with no
 * atomic operation, no thread-local lookup (it knows its home) and no hand-back from other threads (Netty's
 * {@code Recycler} does both, and cost a fifth of the event loop's time in request-response). A payload released
 * on another thread is left to the garbage collector.
 *
 * <p>An engine lending frame after frame keeps one instance of its own instead ({@link #borrowed(RefCountedPayload,
 * ByteBuf, int, int, int, int)}), never pooled: the last frame's payload, if released within its loan, carries the
 * next, always the instance just used, where the pool's stack cycles through every payload a read burst holds.
 *
 * <p><b>Debug check.</b> Pooling defeats the reference count's guard: a stale reference to a released payload may
 * point at an instance that already carries another message, so a late read sees the wrong bytes and a second
 * release frees someone else's payload. With {@code -Dsluice.payload.debug=true} (on in every test run, through
 * the parent pom's {@code surefire.argLine}) released payloads never go back to the pool, so a use after release
 * or a second release always meets a count of 0 and throws {@link IllegalReferenceCountException}, whose cause
 * records where the payload was released. Off, the flag is a {@code static final} false: the JIT drops both of
 * its branches, and the accessors are unchanged.
 *
 * <p>A little past 400 lines: the count, the views and the pool are one object's state, all on every message's
 * path; split apart, each piece would reach into the others' fields.
 */
final class RefCountedPayload implements Payload {

    private static final AtomicIntegerFieldUpdater<RefCountedPayload> REF_CNT =
        AtomicIntegerFieldUpdater.newUpdater(RefCountedPayload.class, "refCnt");
    /** The debug check described in the class comment; read once, so that off it costs nothing. */
    static final boolean DEBUG = Boolean.getBoolean("sluice.payload.debug");
    /** Released payloads kept per thread: enough for a read burst's worth of requests. */
    private static final int POOL_CAPACITY = 1024;
    private static final FastThreadLocal<Pool> POOL = new FastThreadLocal<>() {
        @Override
        protected Pool initialValue() {
            return new Pool();
        }
    };

    /** Set in {@link #refCnt} while the payload borrows its frame's buffer (see "Borrowed frames" above). */
    private static final int BORROWED = 1 << 30;
    private static final int COUNT = BORROWED - 1;

    /** The count, and {@link #BORROWED} while borrowing; 0 once released. */
    private volatile int refCnt;
    private ByteBuf data;
    private ByteBuf metadata;
    /** The received frame's buffer, or null for a payload made from separate buffers. */
    private ByteBuf frame;
    private int dataOffset;
    private int dataLength;
    private int metadataOffset;
    /** -1 = absent. */
    private int metadataLength;
    /** Where the payload was released; recorded only under {@link #DEBUG}, which never reuses a payload. */
    private Throwable releasedAt;

    /** The pool of the thread that made this payload, where it goes back if that thread releases it. */
    private final Pool home;
    /** False for an instance its maker keeps for reuse, which a release never puts in {@link #home}. */
    private final boolean pooled;
    /**
     * Set when the maker's thread released this borrower within its loan; only then may the maker reuse it. A release
     * on another thread may still be clearing the fields when the maker sees the count at 0.
     */
    private boolean releasedByMaker;

    private RefCountedPayload(Pool home, boolean pooled) {
        this.home = home;
        this.pooled = pooled;
    }

    /** Takes ownership of both buffers; {@code data} null means empty, {@code metadata} null means absent. */
    static RefCountedPayload create(ByteBuf data, ByteBuf metadata) {
        RefCountedPayload p = take();
        p.data = data == null ? Unpooled.EMPTY_BUFFER : data;
        p.metadata = metadata;
        return p;
    }

    /**
     * A payload over regions of {@code frame} ({@code metadataLength} -1 = absent); takes one new reference to
     * {@code frame} and releases it when the payload is released.
     */
    static RefCountedPayload regions(ByteBuf frame, int metadataOffset, int metadataLength, int dataOffset,
                                     int dataLength) {
        RefCountedPayload p = take();
        p.frame = frame.retain();
        p.metadataOffset = metadataOffset;
        p.metadataLength = metadataLength;
        p.dataOffset = dataOffset;
        p.dataLength = dataLength;
        return p;
    }

    /**
     * As {@link #regions}, but borrowing {@code frame} rather than taking a reference to it: the caller keeps
     * {@code frame} unchanged until it has called {@link #settle} on this payload, and calls it on the thread that
     * made the payload.
     */
    static RefCountedPayload borrowed(ByteBuf frame, int metadataOffset, int metadataLength, int dataOffset,
                                      int dataLength) {
        return take(1 | BORROWED).borrow(frame, metadataOffset, metadataLength, dataOffset, dataLength);
    }

    /**
     * As {@link #borrowed(ByteBuf, int, int, int, int)}, carried by {@code reuse} if that is an instance this method
     * made and {@link #settle} then found released; otherwise by a new instance, which is never pooled: the caller
     * keeps it to pass here again. Under {@link #DEBUG} every payload is new, so that a stale reference still throws.
     */
    static RefCountedPayload borrowed(RefCountedPayload reuse, ByteBuf frame, int metadataOffset, int metadataLength,
                                      int dataOffset, int dataLength) {
        RefCountedPayload p = reuse;
        if (DEBUG || p == null || p.pooled || p.refCnt != 0 || !p.releasedByMaker) {
            p = new RefCountedPayload(POOL.get(), false);
        }
        p.releasedByMaker = false;
        REF_CNT.lazySet(p, 1 | BORROWED);
        return p.borrow(frame, metadataOffset, metadataLength, dataOffset, dataLength);
    }

    private RefCountedPayload borrow(ByteBuf frame, int metadataOffset, int metadataLength, int dataOffset,
                                     int dataLength) {
        this.frame = frame;
        this.metadataOffset = metadataOffset;
        this.metadataLength = metadataLength;
        this.dataOffset = dataOffset;
        this.dataLength = dataLength;
        return this;
    }

    /**
     * Ends the loan of {@link #borrowed}: if this payload is still held it takes its reference to the frame now;
     * if it was released meanwhile (or is no longer that borrowed payload: the pool may have handed the instance
     * out again, without the bit) nothing happens.
     *
     * @return whether the maker's thread released the payload within its loan: one made by {@link
     *     #borrowed(RefCountedPayload, ByteBuf, int, int, int, int)} may then carry the next frame
     */
    boolean settle() {
        int c = refCnt;
        if ((c & BORROWED) == 0) {
            return c == 0 && releasedByMaker;
        }
        ByteBuf f = frame;
        if (f == null) {
            return false; // released on another thread between the two reads
        }
        f.retain();
        for (;;) {
            if (REF_CNT.compareAndSet(this, c, c & ~BORROWED)) {
                return false;
            }
            c = refCnt;
            if ((c & BORROWED) == 0) {
                // Released meanwhile, as a borrower that left the buffer's count alone: give back what we took.
                f.release();
                return false;
            }
        }
    }

    private static RefCountedPayload take() {
        return take(1);
    }

    private static RefCountedPayload take(int count) {
        Pool pool = POOL.get();
        RefCountedPayload p = pool.size == 0 ? new RefCountedPayload(pool, true) : pool.free[--pool.size];
        // An ordered store, not a volatile one: whoever gets the payload from this thread gets it through a
        // publication that orders this write, and a full fence per payload was measurable.
        REF_CNT.lazySet(p, count);
        return p;
    }

    @Override
    public ByteBuf data() {
        ensureAccessible();
        ByteBuf d = data;
        if (d == null) {
            // A received payload's data, made on first use: a slice sharing the payload's one frame reference.
            d = dataLength == 0 ? Unpooled.EMPTY_BUFFER : frame.slice(dataOffset, dataLength);
            data = d;
        }
        return d;
    }

    @Override
    public ByteBuf dataBuffer() {
        ensureAccessible();
        ByteBuf d = data;
        return d != null ? d : frame != null && dataLength > 0 ? frame : Unpooled.EMPTY_BUFFER;
    }

    @Override
    public int dataIndex() {
        ByteBuf d = data;
        return d != null ? d.readerIndex() : frame != null && dataLength > 0 ? dataOffset : 0;
    }

    @Override
    public int dataLength() {
        ByteBuf d = data;
        return d != null ? d.readableBytes() : frame != null ? dataLength : 0;
    }

    @Override
    public ByteBuf metadataBuffer() {
        ensureAccessible();
        ByteBuf m = metadata;
        return m != null ? m : frame != null && metadataLength > 0 ? frame : Unpooled.EMPTY_BUFFER;
    }

    @Override
    public int metadataIndex() {
        ByteBuf m = metadata;
        return m != null ? m.readerIndex() : frame != null && metadataLength > 0 ? metadataOffset : 0;
    }

    @Override
    public int metadataLength() {
        ByteBuf m = metadata;
        return m != null ? m.readableBytes() : frame != null ? Math.max(0, metadataLength) : 0;
    }

    @Override
    public ByteBuf metadata() {
        ensureAccessible();
        ByteBuf m = metadata;
        if (m == null && frame != null && metadataLength > 0) {
            m = frame.slice(metadataOffset, metadataLength);
            metadata = m;
        }
        return m == null ? Unpooled.EMPTY_BUFFER : m;
    }

    @Override
    public boolean hasMetadata() {
        ensureAccessible();
        return frame != null ? metadataLength >= 0 : metadata != null;
    }

    private void ensureAccessible() {
        // A borrowing payload's count is never 0 (the bit rides on a count of at least 1).
        if (refCnt == 0) {
            throw released("used after its release");
        }
    }

    /** The failure of a released payload used again; built off the accessors' path, which only branches to it. */
    private IllegalReferenceCountException released(String what) {
        String hint = DEBUG ? "; the cause shows where it was released"
            : "; a payload reused by the pool hides this: run with -Dsluice.payload.debug=true to catch every case";
        return new IllegalReferenceCountException("payload " + what + " (refCnt: 0)" + hint, releasedAt);
    }

    @Override
    public int refCnt() {
        return refCnt & COUNT;
    }

    @Override
    public RefCountedPayload retain() {
        return retain(1);
    }

    @Override
    public RefCountedPayload retain(int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment <= 0: " + increment);
        }
        for (;;) {
            int c = refCnt;
            int count = c & COUNT;
            if (count == 0) {
                throw released("retained after its release");
            }
            if (count + increment > COUNT || count + increment <= 0) {
                throw new IllegalReferenceCountException(count, increment);
            }
            if (REF_CNT.compareAndSet(this, c, c + increment)) {
                return this;
            }
        }
    }

    @Override
    public boolean release() {
        int c = refCnt;
        if (!DEBUG && (c == 1 || c == (1 | BORROWED) && home.owner == Thread.currentThread())) {
            // The caller holds the only reference, so no other thread may retain or release this payload now: an
            // ordered store suffices where a compare-and-set would add a full fence to every request's path.
            // (Two threads releasing one reference at once is a bug that only the CAS below catches: debug mode
            // always takes it.) A borrowing payload qualifies only on the thread that made it, which is where it
            // is settled: elsewhere the settle may run meanwhile, and the CAS below orders the two.
            REF_CNT.lazySet(this, 0);
            deallocate(c != 1);
            if (c != 1) {
                releasedByMaker = true;
            }
            return true;
        }
        return release(1);
    }

    @Override
    public boolean release(int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement <= 0: " + decrement);
        }
        for (;;) {
            int c = refCnt;
            int count = c & COUNT;
            if (count == 0) {
                throw released("released twice");
            }
            if (count < decrement) {
                throw new IllegalReferenceCountException(count, -decrement);
            }
            boolean last = count == decrement;
            if (REF_CNT.compareAndSet(this, c, last ? 0 : c - decrement)) {
                if (last) {
                    deallocate((c & BORROWED) != 0);
                    return true;
                }
                return false;
            }
        }
    }

    @Override
    public RefCountedPayload touch() {
        return touch(null);
    }

    @Override
    public RefCountedPayload touch(Object hint) {
        ensureAccessible();
        if (frame != null) {
            frame.touch(hint);
            return this;
        }
        data.touch(hint);
        if (metadata != null) {
            metadata.touch(hint);
        }
        return this;
    }

    /** {@code frameBorrowed}: the payload never took a reference to its frame, so it gives none back. */
    private void deallocate(boolean frameBorrowed) {
        ByteBuf f = frame;
        ByteBuf d = data;
        ByteBuf m = metadata;
        frame = null;
        data = null;
        metadata = null;
        if (DEBUG) {
            // Kept out of the pool, so this instance stays at 0 and every later use of it throws.
            releasedAt = new Throwable("payload released here, on thread " + Thread.currentThread().getName());
        } else {
            // Back to the pool it came from, if this is its thread (no thread-local lookup: a payload is released
            // where it was made in the common case); released elsewhere, it is left to the garbage collector.
            Pool pool = home;
            if (pooled && pool.owner == Thread.currentThread() && pool.size < POOL_CAPACITY) {
                pool.free[pool.size++] = this;
            }
        }
        if (f != null) {
            // The slices share this one reference: releasing it releases them.
            if (!frameBorrowed) {
                f.release();
            }
            return;
        }
        d.release();
        if (m != null) {
            m.release();
        }
    }

    /** One thread's released payloads. Thread-confined. */
    private static final class Pool {
        final Thread owner = Thread.currentThread();
        final RefCountedPayload[] free = new RefCountedPayload[POOL_CAPACITY];
        int size;
    }

    @Override
    public String toString() {
        if (refCnt == 0) {
            return "Payload(released)";
        }
        return "Payload(data=" + data().readableBytes() + "B, metadata="
            + (hasMetadata() ? metadata().readableBytes() + "B" : "none") + ")";
    }
}
