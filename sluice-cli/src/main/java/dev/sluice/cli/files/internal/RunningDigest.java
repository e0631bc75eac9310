package dev.sluice.cli.files.internal;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The SHA-256 and length of a content that passes by in chunks: {@link #update} each chunk in order, then
 * {@link #finish()}.
 *
 * <p>Not thread-safe: one thread at a time, with each hand-over ordered by a happens-before edge (as the signals of
 * a Reactive Streams subscription are).
 */
public final class RunningDigest {

    private final MessageDigest sha256;
    private long bytes;
    private Checksum result;

    public RunningDigest() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java platform must provide SHA-256 (MessageDigest's Javadoc), so this is a broken JRE.
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /**
     * Adds the readable bytes of {@code chunk}, which is borrowed: its indexes and reference count are left alone.
     *
     * @throws IllegalStateException after {@link #finish()}
     */
    public void update(ByteBuf chunk) {
        if (result != null) {
            throw new IllegalStateException("update after finish: " + result);
        }
        int length = chunk.readableBytes();
        if (length == 0) {
            return;
        }
        if (chunk.hasArray()) {
            sha256.update(chunk.array(), chunk.arrayOffset() + chunk.readerIndex(), length);
        } else {
            // Views that share the memory but have their own positions: the chunk's indexes stay put.
            for (ByteBuffer b : chunk.nioBuffers(chunk.readerIndex(), length)) {
                sha256.update(b);
            }
        }
        bytes += length;
    }

    /** The bytes added so far. */
    public long bytes() {
        return bytes;
    }

    /** The checksum of everything added; later calls return the same value. */
    public Checksum finish() {
        if (result == null) {
            result = Checksum.of(bytes, sha256.digest());
        }
        return result;
    }
}
