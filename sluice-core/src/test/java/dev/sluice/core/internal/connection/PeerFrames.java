package dev.sluice.core.internal.connection;

import dev.sluice.frame.CancelFrame;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.ErrorFrame;
import dev.sluice.frame.FrameDump;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameValidator;
import dev.sluice.frame.MetadataPushFrame;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.frame.PayloadSection;
import dev.sluice.frame.RequestChannelFrame;
import dev.sluice.frame.RequestFnfFrame;
import dev.sluice.frame.RequestNFrame;
import dev.sluice.frame.RequestResponseFrame;
import dev.sluice.frame.RequestStreamFrame;
import dev.sluice.frame.SetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * The frames a scripted peer sends to the engine, built with sluice-frame's encoders, and one-line descriptions of
 * the frames the engine writes, so that a test can state the exact frames it expects.
 *
 * <p>Each builder returns a new pooled buffer that {@link FakeTransport#receive} takes over: payloads the engine
 * hands on are retained slices of it, so one nobody releases shows up in the paranoid leak detector.
 */
final class PeerFrames {

    static final String MIME = "application/binary";

    private PeerFrames() {
    }

    /** A version 1.0 SETUP without lease or resume; its keep-alive timers never fire on a frozen test clock. */
    static ByteBuf setup() {
        ByteBuf out = buffer();
        SetupFrame.encode(out, false, 60_000, 300_000, null, MIME, MIME, null, null);
        return out;
    }

    static ByteBuf requestResponse(int streamId, String data) {
        ByteBuf out = buffer();
        RequestResponseFrame.encode(out, streamId, false, null, utf8(data));
        return out;
    }

    static ByteBuf fireAndForget(int streamId, String data) {
        ByteBuf out = buffer();
        RequestFnfFrame.encode(out, streamId, false, null, utf8(data));
        return out;
    }

    /** METADATA_PUSH (stream 0) carrying {@code metadata}. */
    static ByteBuf metadataPush(String metadata) {
        ByteBuf out = buffer();
        MetadataPushFrame.encode(out, utf8(metadata));
        return out;
    }

    static ByteBuf requestStream(int streamId, long n, String data) {
        ByteBuf out = buffer();
        RequestStreamFrame.encode(out, streamId, false, n, null, utf8(data));
        return out;
    }

    /** REQUEST_CHANNEL; {@code complete} sets C: the requester's side ends with this, its only payload. */
    static ByteBuf requestChannel(int streamId, long n, boolean complete, String data) {
        ByteBuf out = buffer();
        RequestChannelFrame.encode(out, streamId, false, complete, n, null, utf8(data));
        return out;
    }

    static ByteBuf requestN(int streamId, long n) {
        ByteBuf out = buffer();
        RequestNFrame.encode(out, streamId, n);
        return out;
    }

    static ByteBuf cancel(int streamId) {
        ByteBuf out = buffer();
        CancelFrame.encode(out, streamId);
        return out;
    }

    /** PAYLOAD with N. */
    static ByteBuf next(int streamId, String data) {
        ByteBuf out = buffer();
        PayloadFrame.encode(out, streamId, false, false, true, null, utf8(data));
        return out;
    }

    /** PAYLOAD with N and C: the last element and the end of the sender's side in one frame. */
    static ByteBuf nextComplete(int streamId, String data) {
        ByteBuf out = buffer();
        PayloadFrame.encode(out, streamId, false, true, true, null, utf8(data));
        return out;
    }

    /** PAYLOAD with C alone. */
    static ByteBuf complete(int streamId) {
        ByteBuf out = buffer();
        PayloadFrame.encode(out, streamId, false, true, false, null, null);
        return out;
    }

    static ByteBuf error(int streamId, int code, String message) {
        ByteBuf out = buffer();
        ErrorFrame.encode(out, streamId, code, message);
        return out;
    }

    /**
     * The frame as one line: type, stream id, flags by letter (when any), then its fields with payload contents as
     * UTF-8, e.g. {@code "PAYLOAD 1 N data=x"}, {@code "PAYLOAD 1 C"}, {@code "REQUEST_N 1 n=2"},
     * {@code "ERROR 1 INVALID: why"}. A frame that fails validation is described by {@link FrameDump}, which
     * names the problem, so it matches no expected line.
     */
    static String describe(ByteBuf frame) {
        int off = frame.readerIndex();
        int len = frame.readableBytes();
        if (FrameValidator.validate(frame, off, len) != null) {
            return FrameDump.toString(frame, off, len);
        }
        int type = FrameHeader.frameType(frame, off);
        int flags = FrameHeader.flags(frame, off);
        StringBuilder sb = new StringBuilder(FrameType.name(type)).append(' ').append(FrameHeader.streamId(frame, off));
        if (flags != 0) {
            sb.append(' ').append(flagLetters(flags));
        }
        switch (type) {
            case FrameType.REQUEST_STREAM -> {
                sb.append(" n=").append(RequestStreamFrame.initialRequestN(frame, off));
                payload(sb, frame, off, len, RequestStreamFrame.PAYLOAD_START, true);
            }
            case FrameType.REQUEST_CHANNEL -> {
                sb.append(" n=").append(RequestChannelFrame.initialRequestN(frame, off));
                payload(sb, frame, off, len, RequestChannelFrame.PAYLOAD_START, true);
            }
            case FrameType.REQUEST_RESPONSE -> payload(sb, frame, off, len, RequestResponseFrame.PAYLOAD_START, true);
            case FrameType.REQUEST_FNF -> payload(sb, frame, off, len, RequestFnfFrame.PAYLOAD_START, true);
            case FrameType.PAYLOAD -> payload(sb, frame, off, len, PayloadFrame.PAYLOAD_START,
                (flags & FrameFlags.NEXT) != 0);
            case FrameType.REQUEST_N -> sb.append(" n=").append(RequestNFrame.requestN(frame, off));
            case FrameType.ERROR -> sb.append(' ').append(ErrorCodes.name(ErrorFrame.errorCode(frame, off)))
                .append(": ").append(ErrorFrame.message(frame, off, len));
            default -> {
                // CANCEL and the connection frames: the header says enough here.
            }
        }
        return sb.toString();
    }

    private static void payload(StringBuilder sb, ByteBuf f, int off, int len, int start, boolean element) {
        int mdLen = PayloadSection.metadataLength(f, off, len, start);
        if (mdLen >= 0) {
            sb.append(" metadata=").append(f.toString(PayloadSection.metadataOffset(f, off, start), mdLen,
                StandardCharsets.UTF_8));
        }
        int dataLen = PayloadSection.dataLength(f, off, len, start);
        // A COMPLETE alone carries no element; data on one would be a bug worth seeing, so it is shown then.
        if (element || dataLen > 0) {
            sb.append(" data=").append(f.toString(PayloadSection.dataOffset(f, off, len, start), dataLen,
                StandardCharsets.UTF_8));
        }
    }

    private static String flagLetters(int flags) {
        StringBuilder sb = new StringBuilder();
        appendFlag(sb, flags, FrameFlags.IGNORE, "I");
        appendFlag(sb, flags, FrameFlags.METADATA, "M");
        appendFlag(sb, flags, FrameFlags.FOLLOWS, "F");
        appendFlag(sb, flags, FrameFlags.NEXT, "N");
        appendFlag(sb, flags, FrameFlags.COMPLETE, "C");
        int rest = flags & ~(FrameFlags.IGNORE | FrameFlags.METADATA | FrameFlags.FOLLOWS | FrameFlags.NEXT
            | FrameFlags.COMPLETE);
        if (rest != 0) {
            sb.append(sb.length() == 0 ? "" : "|").append("0x").append(Integer.toHexString(rest));
        }
        return sb.toString();
    }

    private static void appendFlag(StringBuilder sb, int flags, int bit, String letter) {
        if ((flags & bit) != 0) {
            sb.append(sb.length() == 0 ? "" : "|").append(letter);
        }
    }

    private static ByteBuf buffer() {
        return PooledByteBufAllocator.DEFAULT.buffer();
    }

    /** The UTF-8 bytes of {@code s} as a wrapped array: copied into the frame, nothing to release. */
    private static ByteBuf utf8(String s) {
        return Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.UTF_8));
    }
}
