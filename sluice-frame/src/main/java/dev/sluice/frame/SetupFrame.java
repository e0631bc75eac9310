package dev.sluice.frame;

import dev.sluice.frame.internal.Checks;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * SETUP (0x01): the first frame a client sends, on stream 0: version, keep-alive timing, optional resume token,
 * MIME types of metadata and data, and an optional setup payload.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-------------------------------------------------------------+
 * |0|                      Stream ID (31) = 0                     |
 * +-----------+-+-+-+-+-----------+-------------------------------+
 * |Type = 0x01|0|M|R|L|   Flags   |
 * +-----------+-+-+-+-+-----------+-------------------------------+
 * |        Major Version          |         Minor Version         |
 * +-+-----------------------------+-------------------------------+
 * |0|               Time Between KEEPALIVE Frames (31), millis    |
 * +-+-------------------------------------------------------------+
 * |0|                      Max Lifetime (31), millis              |
 * +-+-----------------------------+-------------------------------+
 * |  Token Length (16), only if R |  Resume Token (if R)        ...
 * +---------------+---------------+-------------------------------+
 * |  MIME Length  |  Metadata Encoding MIME Type (US-ASCII)     ...
 * +---------------+-----------------------------------------------+
 * |  MIME Length  |  Data Encoding MIME Type (US-ASCII)         ...
 * +---------------+-----------------------------------------------+
 * |  Metadata Length (24) and Metadata, only if M; then Data    ...
 * +---------------------------------------------------------------+
 * </pre>
 *
 * <p>R (0x080) says a resume token follows; L (0x040) says the client will honor LEASE frames. The payload section
 * starts after the MIME types, so its offset depends on the frame: get it from {@link #payloadStart} and use
 * {@link PayloadSection}, or the metadata/data conveniences here. Both keep-alive values must be &gt; 0.
 *
 * <p>Readers trust the frame (check untrusted input with {@link FrameValidator}) and allocate nothing, except the
 * two MIME type getters, which build Strings for the setup path. Stateless; thread-safe.
 */
public final class SetupFrame {

    /** Version sent by the short {@code encode}: 1.0. */
    public static final int VERSION_MAJOR = 1;
    /** Minor part of the version sent. */
    public static final int VERSION_MINOR = 0;

    /** Offset of the major version from the frame start. */
    public static final int MAJOR_VERSION_OFFSET = FrameHeader.SIZE;
    /** Offset of the minor version from the frame start. */
    public static final int MINOR_VERSION_OFFSET = MAJOR_VERSION_OFFSET + 2;
    /** Offset of the keep-alive interval from the frame start. */
    public static final int KEEPALIVE_INTERVAL_OFFSET = MINOR_VERSION_OFFSET + 2;
    /** Offset of the max lifetime from the frame start. */
    public static final int MAX_LIFETIME_OFFSET = KEEPALIVE_INTERVAL_OFFSET + 4;
    /** Offset of the variable part (token length if R, else the metadata MIME length) from the frame start. */
    public static final int VARIABLE_OFFSET = MAX_LIFETIME_OFFSET + 4;
    /** Length of the smallest SETUP: no token, two empty MIME types, no payload. */
    public static final int MIN_LENGTH = VARIABLE_OFFSET + 2;
    /** The largest resume token the 16-bit length can carry. */
    public static final int MAX_TOKEN_LENGTH = 0xFFFF;
    /** The longest MIME type the 8-bit length can carry. */
    public static final int MAX_MIME_TYPE_LENGTH = 0xFF;

    private SetupFrame() {
    }

    /**
     * Appends a SETUP frame for version 1.0 at {@code out.writerIndex()}.
     *
     * @param leaseEnabled whether the client will honor LEASE frames (L)
     * @param keepAliveIntervalMillis time between the client's KEEPALIVE frames, &gt; 0
     * @param maxLifetimeMillis how long the client tolerates silence from the server, &gt; 0
     * @param resumeToken borrowed; null for no resumption (R clear), else at most {@link #MAX_TOKEN_LENGTH} bytes
     * @param metadataMimeType US-ASCII, at most {@link #MAX_MIME_TYPE_LENGTH} chars
     * @param dataMimeType US-ASCII, at most {@link #MAX_MIME_TYPE_LENGTH} chars
     * @param metadata borrowed; null for no metadata (M clear)
     * @param data borrowed; null for empty data
     * @return the frame length written
     * @throws IllegalArgumentException if a value does not fit its field or the frame would exceed
     *     {@link FrameHeader#MAX_FRAME_LENGTH}
     */
    public static int encode(ByteBuf out, boolean leaseEnabled, int keepAliveIntervalMillis, int maxLifetimeMillis,
            ByteBuf resumeToken, String metadataMimeType, String dataMimeType, ByteBuf metadata, ByteBuf data) {
        return encode(out, VERSION_MAJOR, VERSION_MINOR, leaseEnabled, keepAliveIntervalMillis, maxLifetimeMillis,
                resumeToken, metadataMimeType, dataMimeType, metadata, data);
    }

    /**
     * Appends a SETUP frame with an explicit version: for tests of version negotiation and for future versions.
     *
     * @param majorVersion 0..65535
     * @param minorVersion 0..65535
     * @see #encode(ByteBuf, boolean, int, int, ByteBuf, String, String, ByteBuf, ByteBuf)
     */
    public static int encode(ByteBuf out, int majorVersion, int minorVersion, boolean leaseEnabled,
            int keepAliveIntervalMillis, int maxLifetimeMillis, ByteBuf resumeToken, String metadataMimeType,
            String dataMimeType, ByteBuf metadata, ByteBuf data) {
        if ((majorVersion & ~0xFFFF) != 0 || (minorVersion & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("version outside 0..65535: " + majorVersion + "." + minorVersion);
        }
        if (keepAliveIntervalMillis <= 0) {
            throw new IllegalArgumentException("keepAliveIntervalMillis <= 0: " + keepAliveIntervalMillis);
        }
        if (maxLifetimeMillis <= 0) {
            throw new IllegalArgumentException("maxLifetimeMillis <= 0: " + maxLifetimeMillis);
        }
        if (resumeToken != null && resumeToken.readableBytes() > MAX_TOKEN_LENGTH) {
            throw new IllegalArgumentException("resumeToken length " + resumeToken.readableBytes() + " exceeds "
                    + MAX_TOKEN_LENGTH);
        }
        int metadataMimeLength = Checks.ascii("metadataMimeType", metadataMimeType, MAX_MIME_TYPE_LENGTH);
        int dataMimeLength = Checks.ascii("dataMimeType", dataMimeType, MAX_MIME_TYPE_LENGTH);
        int length = Checks.frameLength(encodedLength(leaseEnabled, keepAliveIntervalMillis, maxLifetimeMillis,
                resumeToken, metadataMimeType, dataMimeType, metadata, data), FrameType.SETUP);

        int flags = (leaseEnabled ? FrameFlags.LEASE : 0) | (resumeToken != null ? FrameFlags.RESUME_ENABLE : 0)
                | (metadata != null ? FrameFlags.METADATA : 0);
        out.ensureWritable(length);
        FrameHeader.encode(out, 0, FrameType.SETUP, flags);
        out.writeShort(majorVersion);
        out.writeShort(minorVersion);
        out.writeInt(keepAliveIntervalMillis);
        out.writeInt(maxLifetimeMillis);
        if (resumeToken != null) {
            out.writeShort(resumeToken.readableBytes());
            out.writeBytes(resumeToken, resumeToken.readerIndex(), resumeToken.readableBytes());
        }
        out.writeByte(metadataMimeLength);
        out.writeCharSequence(metadataMimeType, StandardCharsets.US_ASCII);
        out.writeByte(dataMimeLength);
        out.writeCharSequence(dataMimeType, StandardCharsets.US_ASCII);
        PayloadSection.encode(out, metadata, data);
        return length;
    }

    /**
     * The length {@code encode} writes (null MIME types count as empty). Saturates, never throws; the MIME types
     * are counted as US-ASCII, one byte per char.
     */
    public static int encodedLength(boolean leaseEnabled, int keepAliveIntervalMillis, int maxLifetimeMillis,
            ByteBuf resumeToken, String metadataMimeType, String dataMimeType, ByteBuf metadata, ByteBuf data) {
        long n = MIN_LENGTH;
        if (resumeToken != null) {
            n += 2 + resumeToken.readableBytes();
        }
        n += metadataMimeType == null ? 0 : metadataMimeType.length();
        n += dataMimeType == null ? 0 : dataMimeType.length();
        n += PayloadSection.encodedLength(metadata, data);
        return Checks.saturatedInt(n);
    }

    /** The major version. */
    public static int majorVersion(ByteBuf buf, int off) {
        return buf.getUnsignedShort(off + MAJOR_VERSION_OFFSET);
    }

    /** The minor version. */
    public static int minorVersion(ByteBuf buf, int off) {
        return buf.getUnsignedShort(off + MINOR_VERSION_OFFSET);
    }

    /** Milliseconds between the client's KEEPALIVE frames (u31, top bit masked). */
    public static int keepAliveIntervalMillis(ByteBuf buf, int off) {
        return buf.getInt(off + KEEPALIVE_INTERVAL_OFFSET) & 0x7FFFFFFF;
    }

    /** Milliseconds the client tolerates without a KEEPALIVE from the server (u31, top bit masked). */
    public static int maxLifetimeMillis(ByteBuf buf, int off) {
        return buf.getInt(off + MAX_LIFETIME_OFFSET) & 0x7FFFFFFF;
    }

    /** Whether the client will honor LEASE frames (L). */
    public static boolean leaseEnabled(ByteBuf buf, int off) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.LEASE);
    }

    /** Whether the client asks for resumability and the frame carries a resume token (R). */
    public static boolean resumeEnabled(ByteBuf buf, int off) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.RESUME_ENABLE);
    }

    /** The absolute index of the first resume token byte, or -1 when R is clear. */
    public static int resumeTokenOffset(ByteBuf buf, int off) {
        return resumeEnabled(buf, off) ? off + VARIABLE_OFFSET + 2 : -1;
    }

    /** The resume token length, or -1 when R is clear. */
    public static int resumeTokenLength(ByteBuf buf, int off) {
        return resumeEnabled(buf, off) ? buf.getUnsignedShort(off + VARIABLE_OFFSET) : -1;
    }

    /** The absolute index of the first byte of the metadata MIME type. */
    public static int metadataMimeTypeOffset(ByteBuf buf, int off) {
        return mimeStart(buf, off) + 1;
    }

    /** The length of the metadata MIME type in bytes. */
    public static int metadataMimeTypeLength(ByteBuf buf, int off) {
        return buf.getUnsignedByte(mimeStart(buf, off));
    }

    /** The absolute index of the first byte of the data MIME type. */
    public static int dataMimeTypeOffset(ByteBuf buf, int off) {
        int start = mimeStart(buf, off);
        return start + 1 + buf.getUnsignedByte(start) + 1;
    }

    /** The length of the data MIME type in bytes. */
    public static int dataMimeTypeLength(ByteBuf buf, int off) {
        int start = mimeStart(buf, off);
        return buf.getUnsignedByte(start + 1 + buf.getUnsignedByte(start));
    }

    /** The metadata MIME type, decoded as UTF-8 (a superset of the US-ASCII the spec asks for). Allocates. */
    public static String metadataMimeType(ByteBuf buf, int off) {
        return buf.toString(metadataMimeTypeOffset(buf, off), metadataMimeTypeLength(buf, off),
                StandardCharsets.UTF_8);
    }

    /** The data MIME type, decoded as UTF-8. Allocates. */
    public static String dataMimeType(ByteBuf buf, int off) {
        return buf.toString(dataMimeTypeOffset(buf, off), dataMimeTypeLength(buf, off), StandardCharsets.UTF_8);
    }

    /** Offset of the payload section from the frame start, for use with {@link PayloadSection}. */
    public static int payloadStart(ByteBuf buf, int off) {
        int dataMime = dataMimeTypeOffset(buf, off);
        return dataMime + buf.getUnsignedByte(dataMime - 1) - off;
    }

    /** The setup metadata length, or -1 when M is clear. */
    public static int metadataLength(ByteBuf buf, int off, int len) {
        return PayloadSection.metadataLength(buf, off, len, payloadStart(buf, off));
    }

    /** The absolute index of the first setup metadata byte (see {@link PayloadSection#metadataOffset}). */
    public static int metadataOffset(ByteBuf buf, int off) {
        return PayloadSection.metadataOffset(buf, off, payloadStart(buf, off));
    }

    /** The absolute index of the first setup data byte. */
    public static int dataOffset(ByteBuf buf, int off, int len) {
        return PayloadSection.dataOffset(buf, off, len, payloadStart(buf, off));
    }

    /** The setup data length, 0 or more. */
    public static int dataLength(ByteBuf buf, int off, int len) {
        return PayloadSection.dataLength(buf, off, len, payloadStart(buf, off));
    }

    /** Absolute index of the metadata MIME length byte: after the token when R is set. */
    private static int mimeStart(ByteBuf buf, int off) {
        int start = off + VARIABLE_OFFSET;
        if (resumeEnabled(buf, off)) {
            start += 2 + buf.getUnsignedShort(start);
        }
        return start;
    }
}
