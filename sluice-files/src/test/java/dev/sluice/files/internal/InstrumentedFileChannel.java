package dev.sluice.files.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real {@link FileChannel} with a hook before every positional read and every write at the channel's position
 * (to slow them down, fail them or act in the middle of them), an optional limit on the bytes each write takes (to
 * force short writes), and counters of what it was asked to do, including the most operations ever in progress at
 * once. Reads must be positional and writes relative, as the reader and the writer do them; the other kind throws.
 * Thread-safe.
 */
final class InstrumentedFileChannel extends FileChannel {

    /** Runs before an operation; may block or throw. {@code index} counts operations of that kind from 1. */
    @FunctionalInterface
    interface Hook {
        void before(long index, long position) throws IOException;
    }

    /** The most bytes write number {@code index} (counting from 1) takes; it may be 0. */
    @FunctionalInterface
    interface WriteLimit {
        long maxBytes(long index);
    }

    static final Hook NONE = (index, position) -> { };
    static final WriteLimit UNLIMITED = index -> Long.MAX_VALUE;

    private final FileChannel delegate;
    private final Hook beforeRead;
    private final Hook beforeWrite;
    private final WriteLimit writeLimit;
    final AtomicLong reads = new AtomicLong();
    /** Write calls, a gathering write counting once. */
    final AtomicLong writes = new AtomicLong();
    final AtomicLong bytesWritten = new AtomicLong();
    /** For each write call in order, how many buffers it was given. */
    final List<Integer> buffersPerWrite = new CopyOnWriteArrayList<>();
    final AtomicInteger forces = new AtomicInteger();
    final AtomicInteger closes = new AtomicInteger();
    private final AtomicInteger inProgress = new AtomicInteger();
    final AtomicInteger maxInProgress = new AtomicInteger();

    InstrumentedFileChannel(FileChannel delegate, Hook beforeRead, Hook beforeWrite, WriteLimit writeLimit) {
        this.delegate = delegate;
        this.beforeRead = beforeRead;
        this.beforeWrite = beforeWrite;
        this.writeLimit = writeLimit;
    }

    /**
     * An opener of instrumented channels that keeps the last one it opened in {@code last} (a one-element array, so
     * that a lambda can fill it).
     */
    static ChannelOpener opener(Hook beforeRead, Hook beforeWrite, InstrumentedFileChannel[] last) {
        return opener(beforeRead, beforeWrite, UNLIMITED, last);
    }

    /** As {@link #opener(Hook, Hook, InstrumentedFileChannel[])}, with writes that take at most {@code limit}. */
    static ChannelOpener opener(Hook beforeRead, Hook beforeWrite, WriteLimit limit, InstrumentedFileChannel[] last) {
        return (Path path, Set<? extends OpenOption> options) -> {
            InstrumentedFileChannel c = new InstrumentedFileChannel(FileChannel.open(path, options), beforeRead,
                    beforeWrite, limit);
            last[0] = c;
            return c;
        };
    }

    private void enter() {
        int now = inProgress.incrementAndGet();
        maxInProgress.accumulateAndGet(now, Math::max);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        enter();
        try {
            beforeRead.before(reads.incrementAndGet(), position);
            return delegate.read(dst, position);
        } finally {
            inProgress.decrementAndGet();
        }
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        enter();
        try {
            long index = writes.incrementAndGet();
            buffersPerWrite.add(length);
            beforeWrite.before(index, delegate.position());
            long limit = writeLimit.maxBytes(index);
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                total += srcs[i].remaining();
            }
            if (limit >= total) {
                // The real gathering write, as the JDK does it.
                long n = delegate.write(srcs, offset, length);
                bytesWritten.addAndGet(n);
                return n;
            }
            long n = 0;
            for (int i = offset; i < offset + length && n < limit; i++) {
                ByteBuffer src = srcs[i];
                int take = (int) Math.min(src.remaining(), limit - n);
                // A window of the buffer, so that the real channel takes no more than the limit.
                ByteBuffer part = src.duplicate().limit(src.position() + take);
                while (part.hasRemaining()) {
                    delegate.write(part);
                }
                src.position(src.position() + take);
                n += take;
            }
            bytesWritten.addAndGet(n);
            return n;
        } finally {
            inProgress.decrementAndGet();
        }
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return (int) write(new ByteBuffer[] {src}, 0, 1);
    }

    @Override
    public void force(boolean metaData) throws IOException {
        forces.incrementAndGet();
        delegate.force(metaData);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        closes.incrementAndGet();
        delegate.close();
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        throw new UnsupportedOperationException("relative read: the reader must use positional reads");
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        throw new UnsupportedOperationException("relative read: the reader must use positional reads");
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        throw new UnsupportedOperationException("positional write: the writer must write at the channel's position");
    }

    @Override
    public long position() throws IOException {
        return delegate.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        delegate.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        delegate.truncate(size);
        return this;
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return delegate.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        return delegate.transferFrom(src, position, count);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return delegate.map(mode, position, size);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return delegate.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return delegate.tryLock(position, size, shared);
    }
}
