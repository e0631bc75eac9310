package dev.sluice.testkit;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One RSocket frame a {@link ScriptedPeer} read from the wire, without its 3-byte length prefix: a copy of its
 * bytes plus readers for the header and the fields tests assert on.
 *
 * <p>Immutable; thread-safe. Holds no reference-counted buffer, so it needs no release.
 */
public final class ReceivedFrame {

    /** Length of the frame header. */
    public static final int HEADER_SIZE = 6;

    private static final String[] NAMES = {
        "RESERVED", "SETUP", "LEASE", "KEEPALIVE", "REQUEST_RESPONSE", "REQUEST_FNF", "REQUEST_STREAM",
        "REQUEST_CHANNEL", "REQUEST_N", "CANCEL", "PAYLOAD", "ERROR", "METADATA_PUSH", "RESUME", "RESUME_OK",
    };
    private static final int METADATA_FLAG = 0x100;

    private final byte[] bytes;

    /** Takes the frame's bytes (not copied); at least {@link #HEADER_SIZE} of them. */
    ReceivedFrame(byte[] bytes) {
        if (bytes.length < HEADER_SIZE) {
            throw new IllegalArgumentException("frame shorter than its header: " + bytes.length + " bytes");
        }
        this.bytes = bytes;
    }

    /** The 6-bit frame type. */
    public int type() {
        return (u16(4) >>> 10) & 0x3F;
    }

    /** The 31-bit stream id. */
    public int streamId() {
        return intAt(0) & 0x7FFFFFFF;
    }

    /** The 10 flag bits. */
    public int flags() {
        return u16(4) & 0x3FF;
    }

    /** Whether every bit of {@code flag} is set. */
    public boolean hasFlag(int flag) {
        return (flags() & flag) == flag;
    }

    /** The frame length in bytes (prefix excluded). */
    public int length() {
        return bytes.length;
    }

    /** A copy of the frame's bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The big-endian int at {@code offset} from the frame start. */
    public int intAt(int offset) {
        return (bytes[offset] & 0xFF) << 24 | (bytes[offset + 1] & 0xFF) << 16 | (bytes[offset + 2] & 0xFF) << 8
            | bytes[offset + 3] & 0xFF;
    }

    /** For an ERROR frame: the error code. */
    public int errorCode() {
        return intAt(HEADER_SIZE);
    }

    /** For an ERROR frame: the message, UTF-8. */
    public String errorMessage() {
        return new String(bytes, HEADER_SIZE + 4, bytes.length - HEADER_SIZE - 4, StandardCharsets.UTF_8);
    }

    /**
     * The metadata of a frame whose metadata-and-data section starts {@code payloadStart} bytes in (6 for
     * PAYLOAD, REQUEST_RESPONSE and REQUEST_FNF, 10 for REQUEST_STREAM and REQUEST_CHANNEL), decoded as UTF-8, or
     * null when the M flag is clear.
     */
    public String metadataUtf8(int payloadStart) {
        if (!hasFlag(METADATA_FLAG)) {
            return null;
        }
        int mdLen = u24(payloadStart);
        return new String(bytes, payloadStart + 3, mdLen, StandardCharsets.UTF_8);
    }

    /** The data of a frame whose metadata-and-data section starts {@code payloadStart} bytes in, as UTF-8. */
    public String dataUtf8(int payloadStart) {
        int start = hasFlag(METADATA_FLAG) ? payloadStart + 3 + u24(payloadStart) : payloadStart;
        return new String(bytes, start, bytes.length - start, StandardCharsets.UTF_8);
    }

    /** The spec's name of a frame type code, or its hex value. */
    public static String typeName(int type) {
        return type >= 0 && type < NAMES.length ? NAMES[type] : type == 0x3F ? "EXT" : "0x" + Integer.toHexString(type);
    }

    private int u16(int offset) {
        return (bytes[offset] & 0xFF) << 8 | bytes[offset + 1] & 0xFF;
    }

    private int u24(int offset) {
        return (bytes[offset] & 0xFF) << 16 | (bytes[offset + 1] & 0xFF) << 8 | bytes[offset + 2] & 0xFF;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder(typeName(type())).append("(stream=").append(streamId())
            .append(", flags=0x").append(Integer.toHexString(flags())).append(", length=").append(length());
        if (type() == 0x0B && bytes.length >= HEADER_SIZE + 4) {
            s.append(", code=0x").append(Integer.toHexString(errorCode())).append(", message='")
                .append(errorMessage()).append('\'');
        }
        return s.append(')').toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReceivedFrame f && Arrays.equals(bytes, f.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }
}
