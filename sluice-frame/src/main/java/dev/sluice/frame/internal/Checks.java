package dev.sluice.frame.internal;

import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;

/**
 * Argument checks shared by the encoders. Each throws {@link IllegalArgumentException} with a message that quotes
 * the condition and the values; none allocates unless it throws.
 *
 * <p>Not part of the API: signatures may change without notice. Stateless; thread-safe.
 */
public final class Checks {

    private Checks() {
    }

    /** Requires {@code streamId >= 0}. */
    public static void streamIdNotNegative(int streamId) {
        if (streamId < 0) {
            throw new IllegalArgumentException("streamId < 0: " + streamId);
        }
    }

    /** Requires {@code streamId > 0}, as frames of one stream need. */
    public static void streamIdPositive(int streamId, int frameType) {
        if (streamId <= 0) {
            throw new IllegalArgumentException(FrameType.name(frameType) + " needs streamId > 0: " + streamId);
        }
    }

    /** Requires {@code value >= 0}; {@code what} names the value in the message. */
    public static void notNegative(String what, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " < 0: " + value);
        }
    }

    /**
     * Requires the metadata range of a fragment-aware encoder to be usable: {@code length == -1} means no
     * metadata; otherwise {@code [index, index + length)} must lie within {@code src}'s written bytes ({@code src}
     * may be null only when {@code length == 0}).
     */
    public static void metadataRange(ByteBuf src, int index, int length) {
        if (length == -1) {
            return;
        }
        if (length < -1) {
            throw new IllegalArgumentException("metadata length < -1: " + length);
        }
        range("metadata", src, index, length);
    }

    /**
     * Requires {@code [index, index + length)} to lie within {@code src}'s written bytes; {@code src} may be null
     * only when {@code length == 0}.
     */
    public static void range(String what, ByteBuf src, int index, int length) {
        if (length < 0) {
            throw new IllegalArgumentException(what + " length < 0: " + length);
        }
        if (length == 0) {
            return;
        }
        if (src == null) {
            throw new IllegalArgumentException(what + " buffer is null with length " + length);
        }
        if (index < 0 || index > src.writerIndex() - length) {
            throw new IllegalArgumentException(what + " range [" + index + ", " + ((long) index + length)
                    + ") outside buffer writerIndex " + src.writerIndex());
        }
    }

    /**
     * Requires a whole frame to fit the protocol's limit, {@link FrameHeader#MAX_FRAME_LENGTH}.
     *
     * @return {@code length} as an int
     */
    public static int frameLength(long length, int frameType) {
        if (length > FrameHeader.MAX_FRAME_LENGTH) {
            throw new IllegalArgumentException(FrameType.name(frameType) + " frame length " + length + " exceeds "
                    + FrameHeader.MAX_FRAME_LENGTH + "; fragment the payload");
        }
        return (int) length;
    }

    /** {@code length} clamped to {@link Integer#MAX_VALUE}, for length companions that must not throw. */
    public static int saturatedInt(long length) {
        return length > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) length;
    }

    /** Readable bytes of a borrowed buffer, 0 for null. */
    public static int readable(ByteBuf buf) {
        return buf == null ? 0 : buf.readableBytes();
    }

    /**
     * Requires {@code s} to be US-ASCII and at most {@code max} chars (so its encoded length is its char count).
     *
     * @return the encoded length, {@code s.length()}
     */
    public static int ascii(String what, CharSequence s, int max) {
        if (s == null) {
            throw new IllegalArgumentException(what + " is null");
        }
        int n = s.length();
        if (n > max) {
            throw new IllegalArgumentException(what + " is " + n + " chars, max " + max + ": " + s);
        }
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) > 0x7F) {
                throw new IllegalArgumentException(what + " is not US-ASCII at index " + i + ": " + s);
            }
        }
        return n;
    }
}
