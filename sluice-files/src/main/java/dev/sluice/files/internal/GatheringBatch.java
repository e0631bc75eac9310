package dev.sluice.files.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;

/**
 * The file {@link FileWriteSubscriber} writes, and the batches it writes it in: the chunks of one gathering write,
 * taken from the {@link ChunkBacklog} (queued, or polled from a source that fused synchronously), written fully, then
 * released and counted. Only the writer's drain uses it, so one thread at a time; its arrays are reused from batch to
 * batch, so a chunk costs no allocation.
 *
 * <h2>Gathering writes</h2>
 * The file is written in order from offset 0 at the channel's own position, so that what is queued can go out in
 * one gathering {@link FileChannel#write(ByteBuffer[], int, int) write}: a <em>batch</em> of up to
 * {@value #MAX_BATCH_CHUNKS} chunks and {@value #MAX_BATCH_BYTES} bytes (the first chunk always goes, however large),
 * written fully (a short write is continued) before any of its chunks is released or counted. (A batch of one
 * buffer goes through the plain {@link FileChannel#write(ByteBuffer) write}, which costs the JDK less.) The demand
 * controller then hears once of the whole batch, with the new totals: the chunks completed together, and the backlog
 * it judges is what is left after them. So under a source that floods the writer, the window does not shrink to its
 * minimum but to about two batches (one written while the next waits): a window of one or two chunks would make
 * every batch one or two chunks. A chunk that cannot be presented as at most {@value #MAX_BATCH_BUFFERS} NIO buffers is
 * written on its own through {@link ChunkType#write}, also at the channel's position.
 *
 * @param <T> the chunk type
 */
final class GatheringBatch<T> {

    /**
     * The most chunks in one gathering write: small chunks (a network source's, say 8 KiB) then cost one system call
     * per sixteen, and the batch arrays stay small. (Linux takes up to IOV_MAX = 1024 buffers per call; the JDK
     * splits larger arrays itself.)
     */
    static final int MAX_BATCH_CHUNKS = 16;

    /**
     * The most bytes in one gathering write, unless its first chunk alone is larger. Gathering is for small chunks
     * (a network source's, say 8 KiB, go eight to a call); at 64 KiB a system call's fixed cost, about a microsecond,
     * is already small against copying the bytes into the page cache. Larger writes were not faster where we
     * measured and were sometimes much slower: on our benchmark VM (Linux 6.18, ext4), ten files of 100 MiB written
     * in 128 or 256 KiB writes, interleaved with 64 KiB writes in one process, lost a fifth to a third of their
     * iterations to 650–1800 MB/s against about 3800, with the kernel's copy into the page cache taking five times
     * its usual time; the 64 KiB writes never dropped below 1900 MB/s and took about half the total time. A batch
     * smaller than the window also leaves the rest queued, so demand is topped up (and an asynchronous source
     * refills) while the window is still partly full, and under a fast source the window settles at two batches,
     * so fewer bytes wait on the heap. It is also what the JDK stages through per-thread cached direct buffers when
     * chunks are on the heap, so it bounds that memory per writer thread.
     */
    static final int MAX_BATCH_BYTES = 64 * 1024;

    /**
     * Room for the NIO buffers of one batch: four per chunk on average. A batch ends before a chunk whose buffers do
     * not fit; a chunk with more buffers than this is written on its own.
     */
    static final int MAX_BATCH_BUFFERS = 4 * MAX_BATCH_CHUNKS;

    /** Consecutive zero-byte writes after which a write is deemed stuck; a blocking file write never returns 0. */
    private static final int MAX_ZERO_WRITES = 16;

    private final Path path;
    private final Set<? extends OpenOption> openOptions;
    private final boolean fsync;
    private final ChannelOpener opener;
    private final ChunkType<T> chunks;
    private final GreedDemand demand;
    /** The chunks of the batch being written ({@link #batchChunks} of them), kept to release them afterwards. */
    private final Object[] batch = new Object[MAX_BATCH_CHUNKS];
    /** The NIO buffers of the batch ({@link #batchBuffers} of them), reused from batch to batch. */
    private final ByteBuffer[] buffers = new ByteBuffer[MAX_BATCH_BUFFERS];

    /** The file, from {@link #open} until {@link #finish} or {@link #close}. */
    private FileChannel channel;
    private long written;
    private long writtenBytes;
    private int batchChunks;
    private int batchBuffers;
    private long batchBytes;

    /**
     * The batches of a writer of {@code path}; the file is opened by {@link #open}.
     *
     * @param openOptions how to open the file (see {@link FileWriteSubscriber}'s constructor)
     * @param fsync whether {@link #finish} forces the file's content to the device before closing it
     * @param demand the caps a fused source's batches keep within
     */
    GatheringBatch(Path path, Set<? extends OpenOption> openOptions, boolean fsync, ChannelOpener opener,
            ChunkType<T> chunks, GreedDemand demand) {
        this.path = path;
        this.openOptions = openOptions;
        this.fsync = fsync;
        this.opener = opener;
        this.chunks = chunks;
        this.demand = demand;
    }

    /** Whether the file is open: {@link #open} succeeded, and neither {@link #finish} nor {@link #close} came since. */
    boolean isOpen() {
        return channel != null;
    }

    /** Opens the file, for writing from offset 0 at the channel's position. */
    void open() throws IOException {
        channel = opener.open(path, openOptions);
        assert isAt(channel, 0) : "a newly opened channel is not at position 0: " + path;
    }

    /** Ends a write that went well: forces the file if asked to ({@code force(false)}), then closes it. */
    void finish() throws IOException {
        FileChannel c = channel;
        assert isAt(c, writtenBytes) : "wrote " + writtenBytes + " bytes but the channel is elsewhere: " + path;
        channel = null;
        try {
            if (fsync) {
                c.force(false);
            }
        } finally {
            c.close();
        }
    }

    /**
     * Ends a write that failed or was cancelled: closes the file if it is open. A failure to close is suppressed in
     * {@code error}, or dropped if there is none.
     */
    void close(Throwable error) {
        FileChannel c = channel;
        channel = null;
        if (c != null) {
            try {
                c.close();
            } catch (IOException | RuntimeException closeError) {
                if (error != null) {
                    error.addSuppressed(closeError);
                }
            }
        }
    }

    /** For assertions: whether the channel's position is {@code expected}, where the next write must land. */
    private static boolean isAt(FileChannel channel, long expected) {
        try {
            return channel.position() == expected;
        } catch (IOException e) {
            return false;
        }
    }

    /** Chunks written so far. */
    long written() {
        return written;
    }

    /** Bytes written so far: where the channel's position must be. */
    long writtenBytes() {
        return writtenBytes;
    }

    /**
     * Writes {@code first} and, in the same gathering write, what follows it in the {@code backlog} within the batch
     * limits and {@code max} chunks (a chunk that would overflow the batch stays queued, or is carried, for the next
     * one); then releases and counts them. If this throws, every chunk of the batch has been released (failures to
     * release are suppressed in what is thrown).
     *
     * @return the number of chunks written, at least 1
     * @throws RuntimeException also if the write succeeded but a chunk failed to release (the batch is counted)
     */
    int write(T first, int max, ChunkBacklog<T> backlog) throws IOException {
        // The batch owns the chunk from here: whatever fails below, it is released with the batch.
        batch[0] = first;
        batchChunks = 1;
        batchBuffers = 0;
        batchBytes = 0;
        try {
            int size = chunks.readable(first);
            batchBytes = size;
            int parts = size == 0 ? 0 : chunks.nioBufferCount(first);
            if (parts < 0 || parts > MAX_BATCH_BUFFERS) {
                writeAlone(first, size);
            } else {
                if (size > 0) {
                    batchBuffers = chunks.nioBuffers(first, buffers, 0);
                }
                if (backlog.fused()) {
                    fillFromSource(backlog, max);
                } else {
                    fillFromQueue(backlog, max);
                }
                writeBatch();
            }
        } catch (IOException | RuntimeException e) {
            RuntimeException releaseError = releaseBatch();
            if (releaseError != null) {
                e.addSuppressed(releaseError);
            }
            // nioBuffers may have failed half-way, leaving buffers that batchBuffers does not count.
            Arrays.fill(buffers, null);
            throw e;
        }
        int count = batchChunks;
        written += count;
        writtenBytes += batchBytes;
        RuntimeException releaseError = releaseBatch();
        if (releaseError != null) {
            throw releaseError;
        }
        return count;
    }

    /** Adds what is queued behind the batch's first chunk, up to {@code max} chunks and while they {@link #fits}. */
    private void fillFromQueue(ChunkBacklog<T> backlog, int max) {
        while (batchChunks < max) {
            T next = backlog.peekQueued();
            if (next == null || !fits(next)) {
                return;
            }
            backlog.pollQueued();
            add(next);
        }
    }

    /**
     * Polls a fused source for more of the batch, up to {@code max} chunks, while the next chunk, guessed the size
     * of the last, would fit and the caps leave room for one as large as the largest seen (see {@link
     * ChunkBacklog}); a polled chunk that does not {@link #fits} after all is carried to the next batch.
     */
    private void fillFromSource(ChunkBacklog<T> backlog, int max) {
        int itemLimit = Math.min(max, demand.maxItems());
        long maxBytes = demand.maxBytes();
        while (batchChunks < itemLimit && !backlog.sourceEnded()
                && batchBytes + Math.max(1, backlog.lastPolled()) <= MAX_BATCH_BYTES
                && batchBytes + Math.max(1, backlog.largestPolled()) <= maxBytes) {
            T next = backlog.pollSource();
            if (next == null) {
                return;
            }
            if (!fits(next)) {
                backlog.carry(next);
                return;
            }
            add(next);
        }
    }

    /**
     * Whether a chunk can join the batch: within the byte limit and with buffers that fit what is left of the
     * array. A chunk without bytes needs no buffer.
     */
    private boolean fits(T item) {
        int size = chunks.readable(item);
        if (batchBytes + size > MAX_BATCH_BYTES) {
            return false;
        }
        if (size == 0) {
            return true;
        }
        int parts = chunks.nioBufferCount(item);
        return parts >= 0 && parts <= MAX_BATCH_BUFFERS - batchBuffers;
    }

    /** Puts a queued chunk that {@link #fits} into the batch; from here the batch owns it, even if this throws. */
    private void add(T item) {
        int size = chunks.readable(item);
        batch[batchChunks++] = item;
        batchBytes += size;
        if (size > 0) {
            batchBuffers += chunks.nioBuffers(item, buffers, batchBuffers);
        }
    }

    /** Writes the batch's buffers fully; a short write is continued from where it stopped. */
    private void writeBatch() throws IOException {
        long left = batchBytes;
        int offset = 0;
        int zeroWrites = 0;
        while (left > 0) {
            // A lone buffer (the usual case for 64 KiB chunks) goes through the JDK's plain write, which is cheaper
            // than its gathering one: 1-2% more throughput on 1 MiB files (--rows 1m, five paired runs).
            long n = batchBuffers - offset == 1 ? channel.write(buffers[offset])
                    : channel.write(buffers, offset, batchBuffers - offset);
            if (n > 0) {
                left -= n;
                zeroWrites = 0;
                // Skip the buffers the write finished: the JDK advanced their positions to their limits.
                while (offset < batchBuffers && !buffers[offset].hasRemaining()) {
                    offset++;
                }
            } else if (++zeroWrites == MAX_ZERO_WRITES) {
                throw new IOException("write made no progress: " + MAX_ZERO_WRITES + " zero-byte writes at "
                        + (writtenBytes + batchBytes - left) + " in " + path);
            }
        }
    }

    /**
     * Releases every chunk of the batch, even if one fails to release (the first failure is returned, the others
     * suppressed in it), and drops the batch's references so that nothing released stays reachable from here.
     */
    private RuntimeException releaseBatch() {
        RuntimeException error = null;
        for (int i = 0; i < batchChunks; i++) {
            @SuppressWarnings("unchecked")
            T item = (T) batch[i];
            batch[i] = null;
            try {
                chunks.release(item);
            } catch (RuntimeException e) {
                if (error == null) {
                    error = e;
                } else {
                    error.addSuppressed(e);
                }
            }
        }
        Arrays.fill(buffers, 0, batchBuffers, null);
        batchChunks = 0;
        batchBuffers = 0;
        return error;
    }

    /** Writes a chunk that cannot be gathered fully, through {@link ChunkType#write}, at the channel's position. */
    private void writeAlone(T item, int size) throws IOException {
        int zeroWrites = 0;
        while (chunks.readable(item) > 0) {
            if (chunks.write(channel, item) > 0) {
                zeroWrites = 0;
            } else if (++zeroWrites == MAX_ZERO_WRITES) {
                throw new IOException("write made no progress: " + MAX_ZERO_WRITES + " zero-byte writes at "
                        + (writtenBytes + size - chunks.readable(item)) + " in " + path);
            }
        }
    }
}
