package dev.sluice.frame;

import io.netty.buffer.ByteBuf;

/**
 * Checks that a received frame is well formed, so that the readers of the frame classes can then be used without
 * bounds surprises.
 *
 * <p>{@link #validate} returns {@code null} for a well-formed frame and otherwise a message that quotes the broken
 * rule and the values, e.g. {@code "metadata length 300 exceeds frame: 120 bytes left"}. It checks:
 * <ul>
 *   <li>the frame region lies in the buffer's written bytes, holds a header and is at most
 *       {@link FrameHeader#MAX_FRAME_LENGTH} bytes;</li>
 *   <li>the type is one the protocol defines (an unknown type is reported even with the I flag set: the caller
 *       decides, with {@link #ignorable}, whether to drop the frame or fail the connection);</li>
 *   <li>stream rules: SETUP, LEASE, KEEPALIVE, METADATA_PUSH, RESUME and RESUME_OK on stream 0; the REQUEST_*
 *       types, REQUEST_N, CANCEL and PAYLOAD on a stream &gt; 0;</li>
 *   <li>the minimum length of each type, and every inner length (metadata length, SETUP resume token and MIME
 *       types, RESUME token) within the frame;</li>
 *   <li>values the spec requires: demand &gt; 0 in REQUEST_STREAM, REQUEST_CHANNEL and REQUEST_N; both SETUP
 *       keep-alive values &gt; 0; METADATA_PUSH with M set; PAYLOAD with N or C; ERROR code not 0; EXT extended
 *       type &gt; 0.</li>
 * </ul>
 * LEASE with a TTL or a number of requests of 0 is valid (it means "stop"). Flag bits a type does not define are
 * ignored, as the spec says, and so are bytes after the fixed body of REQUEST_N, CANCEL and RESUME_OK.
 *
 * <p>What to do about a violation is the caller's business, and the spec varies: a bad SETUP gets
 * ERROR[INVALID_SETUP], a bad metadata length ERROR[CONNECTION_ERROR], while CANCEL, ERROR or PAYLOAD on an unknown
 * stream (stream 0 included) and METADATA_PUSH on a non-zero stream must be ignored.
 *
 * <p>Allocates nothing for a valid frame; builds the message only on failure. Never throws for any bytes within
 * the region. Stateless; thread-safe as long as nobody writes the bytes being read.
 */
public final class FrameValidator {

    private FrameValidator() {
    }

    /**
     * Returns null when the frame at {@code [off, off + len)} is well formed, else a description of the first
     * violation found.
     */
    public static String validate(ByteBuf buf, int off, int len) {
        String problem = header(buf, off, len);
        if (problem == null) {
            problem = streamId(buf, off);
        }
        return problem != null ? problem : body(buf, off, len);
    }

    /** Whether the frame's I flag is set: a receiver that does not understand it may ignore it. */
    public static boolean ignorable(ByteBuf buf, int off) {
        return FrameHeader.hasFlag(buf, off, FrameFlags.IGNORE);
    }

    /** Whether the region lies in the buffer's written bytes and holds a whole header, so the header can be read. */
    static boolean headerReadable(ByteBuf buf, int off, int len) {
        return buf != null && off >= 0 && len >= FrameHeader.SIZE && off <= buf.writerIndex() - len;
    }

    /**
     * The first of {@link #validate}'s three stages: the region, the header and a type the protocol defines. When
     * it returns null, {@link #streamId} and {@link #body} may be asked, in any order.
     */
    static String header(ByteBuf buf, int off, int len) {
        if (buf == null) {
            return "frame buffer is null";
        }
        if (off < 0 || len < 0 || off > buf.writerIndex() - len) {
            return "frame region [" + off + ", " + ((long) off + len) + ") outside buffer writerIndex "
                    + buf.writerIndex();
        }
        if (len < FrameHeader.SIZE) {
            return "frame too short for header: length=" + len + ", need " + FrameHeader.SIZE;
        }
        if (len > FrameHeader.MAX_FRAME_LENGTH) {
            return "frame length " + len + " exceeds " + FrameHeader.MAX_FRAME_LENGTH;
        }
        int type = FrameHeader.frameType(buf, off);
        if (!FrameType.isKnown(type)) {
            return (type == FrameType.RESERVED ? "reserved" : "unknown") + " frame type 0x" + hex2(type);
        }
        return null;
    }

    /** The second stage: the stream the type must use (0, or &gt; 0). Needs {@link #header} to have passed. */
    static String streamId(ByteBuf buf, int off) {
        int type = FrameHeader.frameType(buf, off);
        int streamId = FrameHeader.streamId(buf, off);
        if (streamId != 0 && FrameType.mustUseStreamZero(type)) {
            return FrameType.name(type) + " on stream " + streamId + ", must use stream 0";
        }
        if (streamId == 0 && FrameType.mustUseNonZeroStream(type)) {
            return FrameType.name(type) + " on stream 0, must use a stream id > 0";
        }
        return null;
    }

    /**
     * The third stage: the type's lengths and values, whatever its stream id. Needs {@link #header} to have
     * passed; separate from {@link #streamId} so that a reader can tell a frame that is wrong only in its stream
     * (which the spec sometimes says to ignore) from one that is malformed.
     */
    static String body(ByteBuf buf, int off, int len) {
        int type = FrameHeader.frameType(buf, off);
        switch (type) {
            case FrameType.SETUP:
                return setup(buf, off, len);
            case FrameType.LEASE:
                return minLength(type, len, LeaseFrame.METADATA_OFFSET);
            case FrameType.KEEPALIVE:
                return minLength(type, len, KeepAliveFrame.DATA_OFFSET);
            case FrameType.REQUEST_RESPONSE:
            case FrameType.REQUEST_FNF:
                return payloadSection(buf, off, len, type, PayloadBearingLayout.payloadStart(type));
            case FrameType.REQUEST_STREAM:
            case FrameType.REQUEST_CHANNEL:
                return requestWithDemand(buf, off, len, type);
            case FrameType.REQUEST_N:
                return requestN(buf, off, len);
            case FrameType.CANCEL:
                return null;
            case FrameType.PAYLOAD:
                if (!FrameHeader.hasFlag(buf, off, FrameFlags.NEXT)
                        && !FrameHeader.hasFlag(buf, off, FrameFlags.COMPLETE)) {
                    return "PAYLOAD with neither NEXT nor COMPLETE";
                }
                return payloadSection(buf, off, len, type, PayloadBearingLayout.payloadStart(type));
            case FrameType.ERROR:
                return error(buf, off, len);
            case FrameType.METADATA_PUSH:
                return FrameHeader.hasFlag(buf, off, FrameFlags.METADATA) ? null : "METADATA_PUSH without the M flag";
            case FrameType.RESUME:
                return resume(buf, off, len);
            case FrameType.RESUME_OK:
                return minLength(type, len, ResumeOkFrame.LENGTH);
            case FrameType.EXT:
                return ext(buf, off, len);
            default:
                // header() admits only the types handled here.
                throw new IllegalStateException("unhandled frame type 0x" + hex2(type));
        }
    }

    private static String setup(ByteBuf buf, int off, int len) {
        boolean resume = FrameHeader.hasFlag(buf, off, FrameFlags.RESUME_ENABLE);
        String tooShort = minLength(FrameType.SETUP, len, SetupFrame.MIN_LENGTH + (resume ? 2 : 0));
        if (tooShort != null) {
            return tooShort;
        }
        int keepAlive = SetupFrame.keepAliveIntervalMillis(buf, off);
        if (keepAlive == 0) {
            return "SETUP with keepAliveInterval=0";
        }
        int lifetime = SetupFrame.maxLifetimeMillis(buf, off);
        if (lifetime == 0) {
            return "SETUP with maxLifetime=0";
        }
        int pos = SetupFrame.VARIABLE_OFFSET;
        if (resume) {
            int token = buf.getUnsignedShort(off + pos);
            pos += 2;
            if (token > len - pos) {
                return "resume token length " + token + " exceeds frame: " + (len - pos) + " bytes left";
            }
            pos += token;
        }
        // pos + 2 <= len holds here without a token; with one, the length bytes may be gone.
        tooShort = minLength(FrameType.SETUP, len, pos + 1);
        if (tooShort != null) {
            return tooShort;
        }
        int metadataMime = buf.getUnsignedByte(off + pos);
        pos += 1;
        if (metadataMime > len - pos) {
            return "metadata MIME type length " + metadataMime + " exceeds frame: " + (len - pos) + " bytes left";
        }
        pos += metadataMime;
        tooShort = minLength(FrameType.SETUP, len, pos + 1);
        if (tooShort != null) {
            return tooShort;
        }
        int dataMime = buf.getUnsignedByte(off + pos);
        pos += 1;
        if (dataMime > len - pos) {
            return "data MIME type length " + dataMime + " exceeds frame: " + (len - pos) + " bytes left";
        }
        pos += dataMime;
        return payloadSection(buf, off, len, FrameType.SETUP, pos);
    }

    private static String requestWithDemand(ByteBuf buf, int off, int len, int type) {
        int payloadStart = PayloadBearingLayout.payloadStart(type);
        String tooShort = minLength(type, len, payloadStart);
        if (tooShort != null) {
            return tooShort;
        }
        if ((buf.getInt(off + PayloadBearingLayout.FIELD_OFFSET) & 0x7FFFFFFF) == 0) {
            return FrameType.name(type) + " with initialRequestN=0";
        }
        return payloadSection(buf, off, len, type, payloadStart);
    }

    private static String requestN(ByteBuf buf, int off, int len) {
        String tooShort = minLength(FrameType.REQUEST_N, len, RequestNFrame.LENGTH);
        if (tooShort != null) {
            return tooShort;
        }
        if ((buf.getInt(off + RequestNFrame.REQUEST_N_OFFSET) & 0x7FFFFFFF) == 0) {
            return "REQUEST_N with n=0";
        }
        return null;
    }

    private static String error(ByteBuf buf, int off, int len) {
        String tooShort = minLength(FrameType.ERROR, len, ErrorFrame.MESSAGE_OFFSET);
        if (tooShort != null) {
            return tooShort;
        }
        if (ErrorFrame.errorCode(buf, off) == 0) {
            return "ERROR with reserved error code 0x00000000";
        }
        return null;
    }

    private static String resume(ByteBuf buf, int off, int len) {
        String tooShort = minLength(FrameType.RESUME, len, ResumeFrame.MIN_LENGTH);
        if (tooShort != null) {
            return tooShort;
        }
        return minLength(FrameType.RESUME, len, ResumeFrame.MIN_LENGTH + ResumeFrame.resumeTokenLength(buf, off));
    }

    private static String ext(ByteBuf buf, int off, int len) {
        String tooShort = minLength(FrameType.EXT, len, PayloadBearingLayout.payloadStart(FrameType.EXT));
        if (tooShort != null) {
            return tooShort;
        }
        if (ExtFrame.extendedType(buf, off) == 0) {
            return "EXT with extendedType=0";
        }
        return payloadSection(buf, off, len, FrameType.EXT, PayloadBearingLayout.payloadStart(FrameType.EXT));
    }

    /** Checks the {@link PayloadSection} starting {@code start} bytes into the frame. */
    private static String payloadSection(ByteBuf buf, int off, int len, int type, int start) {
        String tooShort = minLength(type, len, start);
        if (tooShort != null || !FrameHeader.hasFlag(buf, off, FrameFlags.METADATA)) {
            return tooShort;
        }
        int need = start + PayloadSection.METADATA_LENGTH_SIZE;
        if (len < need) {
            return "frame too short for " + FrameType.name(type) + " with metadata: length=" + len + ", need "
                    + need;
        }
        int metadata = buf.getUnsignedMedium(off + start);
        if (metadata > len - need) {
            return "metadata length " + metadata + " exceeds frame: " + (len - need) + " bytes left";
        }
        return null;
    }

    private static String minLength(int type, int len, int need) {
        if (len < need) {
            return "frame too short for " + FrameType.name(type) + ": length=" + len + ", need " + need;
        }
        return null;
    }

    private static String hex2(int type) {
        return String.format("%02x", type);
    }
}
