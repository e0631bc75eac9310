package dev.sluice.frame;

import io.netty.buffer.ByteBuf;

/**
 * Reads one received frame and calls the one {@link Handler} method for its type, with the frame's fields decoded
 * into primitives and its metadata, data or message passed as {@code (buf, offset, length)} views.
 *
 * <p>{@link #read} validates the frame once with {@link FrameValidator}'s rules, reads the header once, and then
 * either calls exactly one handler method or, for a frame the spec lets a receiver drop, none. What happens to a
 * frame that fails validation:
 * <ul>
 *   <li><b>Dropped, no call:</b> the frame has the I (ignore) flag and a whole header (6 bytes within the
 *       buffer). This covers unknown frame types sent with I, and any other violation on a frame whose sender
 *       said it may be ignored.</li>
 *   <li><b>Dispatched as usual:</b> the frame's only problem is a stream id that the spec says to ignore rather
 *       than fail on: CANCEL, PAYLOAD or REQUEST_N on stream 0 (a stream nobody opens, so an unknown stream), or
 *       METADATA_PUSH on a stream other than 0. The handler sees the frame's stream id, and should treat it as
 *       an unknown stream and ignore it.</li>
 *   <li><b>{@link Handler#malformed}:</b> anything else, with the validator's message, for example
 *       {@code "metadata length 300 exceeds frame: 120 bytes left"}. A frame of the previous kind that is also
 *       malformed in its body (say REQUEST_N on stream 0 with n = 0) lands here, with the body's problem.</li>
 * </ul>
 * Whether a well-formed frame is expected in the connection's state (a second SETUP, a request on a stream in
 * use, an EXT the handler does not understand) is the handler's business.
 *
 * <p><b>Views.</b> Offsets are absolute indexes into {@code buf}; lengths are byte counts. A metadata length of
 * -1 means the M flag is clear (no metadata), as opposed to 0 (empty metadata); the offset that goes with -1 is
 * where the metadata would start and means nothing. The buffer is borrowed for the duration of the call: a handler
 * that keeps bytes retains a slice of them, and must not move the buffer's indexes or release it.
 *
 * <p>No allocation on the valid path: no objects, lambdas or strings; the message passed to {@code malformed} is
 * built only then. Stateless; thread-safe; the handler is called on the caller's thread, before {@code read}
 * returns.
 */
public final class FrameReader {

    /**
     * Receives the frames {@link FrameReader#read} decodes, one method per frame type. {@code flags} are the raw
     * 10 header flag bits ({@link FrameFlags}), M included.
     */
    public interface Handler {

        /** A SETUP frame, whole, for the {@link SetupFrame} readers: {@code buf[off, off + len)}. */
        void setup(ByteBuf buf, int off, int len);

        /** A RESUME frame, whole, for the {@link ResumeFrame} readers. */
        void resume(ByteBuf buf, int off, int len);

        /** A RESUME_OK frame, whole, for the {@link ResumeOkFrame} readers. */
        void resumeOk(ByteBuf buf, int off, int len);

        /**
         * A LEASE: {@code numberOfRequests} may be sent during {@code ttlMillis} from now; either may be 0 (stop).
         *
         * @param metadataLength -1 when M is clear
         */
        void lease(long ttlMillis, int numberOfRequests, ByteBuf buf, int metadataOffset, int metadataLength);

        /**
         * A KEEPALIVE; {@code respond} (R) asks for a KEEPALIVE back that echoes the data.
         *
         * @param lastReceivedPosition the sender's resume position, 0 without resumption
         */
        void keepAlive(boolean respond, long lastReceivedPosition, ByteBuf buf, int dataOffset, int dataLength);

        /** A REQUEST_RESPONSE, or the first fragment of one when {@code flags} has F. Metadata length -1 = none. */
        void requestResponse(int streamId, int flags, ByteBuf buf, int metadataOffset, int metadataLength,
                int dataOffset, int dataLength);

        /** A REQUEST_FNF, or the first fragment of one when {@code flags} has F. Metadata length -1 = none. */
        void requestFireAndForget(int streamId, int flags, ByteBuf buf, int metadataOffset, int metadataLength,
                int dataOffset, int dataLength);

        /**
         * A REQUEST_STREAM, or the first fragment of one when {@code flags} has F.
         *
         * @param initialRequestN the first demand, &ge; 1; the wire's 2^31-1 arrives as {@link Long#MAX_VALUE}
         * @param metadataLength -1 when M is clear
         */
        void requestStream(int streamId, int flags, long initialRequestN, ByteBuf buf, int metadataOffset,
                int metadataLength, int dataOffset, int dataLength);

        /**
         * A REQUEST_CHANNEL, or the first fragment of one when {@code flags} has F; C means the requester's side
         * completes with this payload.
         *
         * @param initialRequestN the first demand, &ge; 1; the wire's 2^31-1 arrives as {@link Long#MAX_VALUE}
         * @param metadataLength -1 when M is clear
         */
        void requestChannel(int streamId, int flags, long initialRequestN, ByteBuf buf, int metadataOffset,
                int metadataLength, int dataOffset, int dataLength);

        /**
         * A PAYLOAD: an element (N), completion (C) or both, or a fragment (F) of a request or element. Has N or C
         * (or both); {@code streamId} is 0 for a PAYLOAD sent on stream 0, which is to be ignored.
         *
         * @param metadataLength -1 when M is clear
         */
        void payload(int streamId, int flags, ByteBuf buf, int metadataOffset, int metadataLength, int dataOffset,
                int dataLength);

        /**
         * A REQUEST_N. {@code streamId} is 0 for a REQUEST_N sent on stream 0, which is to be ignored.
         *
         * @param n the added demand, &ge; 1; the wire's 2^31-1 arrives as {@link Long#MAX_VALUE}
         */
        void requestN(int streamId, long n);

        /** A CANCEL. {@code streamId} is 0 for a CANCEL sent on stream 0, which is to be ignored. */
        void cancel(int streamId);

        /**
         * An ERROR on a stream, or on the connection when {@code streamId} is 0. The message is UTF-8, possibly
         * empty; {@code buf.toString(messageOffset, messageLength, UTF_8)} makes it a String on the error path.
         *
         * @param errorCode one of {@link ErrorCodes}, never 0
         */
        void error(int streamId, int errorCode, ByteBuf buf, int messageOffset, int messageLength);

        /**
         * A METADATA_PUSH: connection metadata, {@code metadataLength} &ge; 0 (M is always set). {@code streamId} is
         * non-zero for a METADATA_PUSH sent on a stream, which is to be ignored.
         */
        void metadataPush(int streamId, ByteBuf buf, int metadataOffset, int metadataLength);

        /**
         * An EXT frame, on stream 0 or a stream. A handler that does not understand {@code extendedType} ignores
         * it when {@code flags} has I and fails the connection otherwise (the spec's "Handling Ignore Flag").
         *
         * @param extendedType &gt; 0
         * @param metadataLength -1 when M is clear (the generic layout of {@link ExtFrame})
         */
        void ext(int streamId, int flags, int extendedType, ByteBuf buf, int metadataOffset, int metadataLength,
                int dataOffset, int dataLength);

        /**
         * A frame that failed validation and may not be ignored. The spec's answer is ERROR[CONNECTION_ERROR]
         * (ERROR[INVALID_SETUP] before SETUP) and closing the connection.
         *
         * @param problem the validator's message, quoting the broken rule and its values
         */
        void malformed(String problem);
    }

    private FrameReader() {
    }

    /**
     * Validates the frame at {@code buf[off, off + len)} and calls the handler method for its type, or
     * {@link Handler#malformed}, or nothing (see the class comment for which).
     *
     * @param buf holds the frame; borrowed, its indexes are not moved
     * @param off absolute index of the first header byte (after any transport length prefix)
     * @param len frame length, the header included
     */
    public static void read(ByteBuf buf, int off, int len, Handler handler) {
        if (!FrameValidator.headerReadable(buf, off, len) || !readExchangeFrame(buf, off, len, handler)) {
            readValidated(buf, off, len, handler);
        }
    }

    /** {@link #read} for any frame: validates it stage by stage, then dispatches it. */
    static void readValidated(ByteBuf buf, int off, int len, Handler handler) {
        String problem = FrameValidator.header(buf, off, len);
        if (problem == null) {
            problem = FrameValidator.streamId(buf, off);
            if (problem == null || ignoredOnItsStream(buf, off)) {
                problem = FrameValidator.body(buf, off, len);
            }
        }
        if (problem == null) {
            // The payload-bearing types go straight to their decoder: on the request path every call level counts
            // towards the JIT's inlining depth, which a handler's own code then runs out of.
            int typeAndFlags = buf.getUnsignedShort(off + FrameHeader.TYPE_AND_FLAGS_OFFSET);
            int type = typeAndFlags >>> FrameHeader.TYPE_SHIFT;
            if (PayloadBearingLayout.isPayloadBearing(type)) {
                payloadBearing(buf, off, len, handler, type, FrameHeader.streamId(buf, off),
                        typeAndFlags & FrameFlags.MASK);
            } else {
                dispatch(buf, off, len, handler);
            }
        } else if (!FrameValidator.headerReadable(buf, off, len) || !FrameValidator.ignorable(buf, off)) {
            handler.malformed(problem);
        }
    }

    /**
     * The frames of every request-response exchange — REQUEST_RESPONSE, REQUEST_FNF and PAYLOAD, valid and on a
     * stream — read with each header field loaded once and the validator's rules for them applied to those values:
     * {@link #readValidated} loads the type and flags once per rule, each load a bounds and liveness check on the
     * buffer. Anything else (another type, any problem, a length past the frame limit) returns false and goes to
     * {@link #readValidated}, which decides and words the outcome; this one may only accept what that one accepts,
     * and make the same call (ExchangeFramesReadTest holds the two to that).
     */
    private static boolean readExchangeFrame(ByteBuf buf, int off, int len, Handler handler) {
        int typeAndFlags = buf.getUnsignedShort(off + FrameHeader.TYPE_AND_FLAGS_OFFSET);
        int type = typeAndFlags >>> FrameHeader.TYPE_SHIFT;
        int flags = typeAndFlags & FrameFlags.MASK;
        if (type != FrameType.REQUEST_RESPONSE && type != FrameType.PAYLOAD && type != FrameType.REQUEST_FNF
                || type == FrameType.PAYLOAD && (flags & (FrameFlags.NEXT | FrameFlags.COMPLETE)) == 0
                || len > FrameHeader.MAX_FRAME_LENGTH) {
            return false;
        }
        int streamId = FrameHeader.streamId(buf, off);
        if (streamId == 0) {
            return false;
        }
        // No field in these three: the payload section starts right after the header.
        int metadataOffset = off + FrameHeader.SIZE;
        int metadataLength = -1;
        if ((flags & FrameFlags.METADATA) != 0) {
            if (len < FrameHeader.SIZE + PayloadSection.METADATA_LENGTH_SIZE) {
                return false;
            }
            metadataLength = buf.getUnsignedMedium(metadataOffset);
            if (metadataLength > len - FrameHeader.SIZE - PayloadSection.METADATA_LENGTH_SIZE) {
                return false;
            }
            metadataOffset += PayloadSection.METADATA_LENGTH_SIZE;
        }
        int dataOffset = metadataOffset + Math.max(metadataLength, 0);
        int dataLength = off + len - dataOffset;
        if (type == FrameType.PAYLOAD) {
            handler.payload(streamId, flags, buf, metadataOffset, metadataLength, dataOffset, dataLength);
        } else if (type == FrameType.REQUEST_RESPONSE) {
            handler.requestResponse(streamId, flags, buf, metadataOffset, metadataLength, dataOffset, dataLength);
        } else {
            handler.requestFireAndForget(streamId, flags, buf, metadataOffset, metadataLength, dataOffset,
                    dataLength);
        }
        return true;
    }

    /**
     * Whether the frame's stream id breaks its type's rule in a way the spec says to ignore rather than fail on:
     * CANCEL, PAYLOAD or REQUEST_N on stream 0 (a stream nobody has, so "an unknown stream"), METADATA_PUSH on a
     * stream other than 0 ("MUST be ignored"). Asked only after the stream rule failed.
     */
    private static boolean ignoredOnItsStream(ByteBuf buf, int off) {
        int type = FrameHeader.frameType(buf, off);
        if (FrameHeader.streamId(buf, off) == 0) {
            return type == FrameType.CANCEL || type == FrameType.PAYLOAD || type == FrameType.REQUEST_N;
        }
        return type == FrameType.METADATA_PUSH;
    }

    private static void dispatch(ByteBuf buf, int off, int len, Handler handler) {
        int streamId = FrameHeader.streamId(buf, off);
        int typeAndFlags = buf.getUnsignedShort(off + FrameHeader.TYPE_AND_FLAGS_OFFSET);
        int type = typeAndFlags >>> FrameHeader.TYPE_SHIFT;
        int flags = typeAndFlags & FrameFlags.MASK;
        boolean hasMetadata = (flags & FrameFlags.METADATA) != 0;
        switch (type) {
            case FrameType.REQUEST_RESPONSE:
            case FrameType.REQUEST_FNF:
            case FrameType.REQUEST_STREAM:
            case FrameType.REQUEST_CHANNEL:
            case FrameType.PAYLOAD:
            case FrameType.EXT:
                payloadBearing(buf, off, len, handler, type, streamId, flags);
                return;
            case FrameType.REQUEST_N:
                handler.requestN(streamId, RequestNFrame.requestN(buf, off));
                return;
            case FrameType.CANCEL:
                handler.cancel(streamId);
                return;
            case FrameType.ERROR:
                handler.error(streamId, ErrorFrame.errorCode(buf, off), buf, off + ErrorFrame.MESSAGE_OFFSET,
                        len - ErrorFrame.MESSAGE_OFFSET);
                return;
            case FrameType.KEEPALIVE:
                handler.keepAlive((flags & FrameFlags.RESPOND) != 0, KeepAliveFrame.lastReceivedPosition(buf, off),
                        buf, off + KeepAliveFrame.DATA_OFFSET, len - KeepAliveFrame.DATA_OFFSET);
                return;
            case FrameType.LEASE:
                handler.lease(LeaseFrame.ttlMillis(buf, off), LeaseFrame.numberOfRequests(buf, off), buf,
                        off + LeaseFrame.METADATA_OFFSET, hasMetadata ? len - LeaseFrame.METADATA_OFFSET : -1);
                return;
            case FrameType.METADATA_PUSH:
                handler.metadataPush(streamId, buf, off + MetadataPushFrame.METADATA_OFFSET,
                        len - MetadataPushFrame.METADATA_OFFSET);
                return;
            case FrameType.SETUP:
                handler.setup(buf, off, len);
                return;
            case FrameType.RESUME:
                handler.resume(buf, off, len);
                return;
            case FrameType.RESUME_OK:
                handler.resumeOk(buf, off, len);
                return;
            default:
                // The validator admits only the types handled here.
                throw new IllegalStateException("unhandled frame type " + FrameType.name(type));
        }
    }

    /** The six types whose body is an optional 32-bit field and a {@link PayloadSection}. */
    private static void payloadBearing(ByteBuf buf, int off, int len, Handler handler, int type, int streamId,
            int flags) {
        // PayloadSection's rule, with the flags already in hand rather than read again per accessor.
        int section = off + PayloadBearingLayout.payloadStart(type);
        int metadataLength = -1;
        int metadataOffset = section;
        if ((flags & FrameFlags.METADATA) != 0) {
            metadataLength = buf.getUnsignedMedium(section);
            metadataOffset = section + PayloadSection.METADATA_LENGTH_SIZE;
        }
        int dataOffset = metadataOffset + Math.max(metadataLength, 0);
        int dataLength = off + len - dataOffset;
        switch (type) {
            case FrameType.REQUEST_RESPONSE:
                handler.requestResponse(streamId, flags, buf, metadataOffset, metadataLength, dataOffset, dataLength);
                return;
            case FrameType.REQUEST_FNF:
                handler.requestFireAndForget(streamId, flags, buf, metadataOffset, metadataLength, dataOffset,
                        dataLength);
                return;
            case FrameType.REQUEST_STREAM:
                handler.requestStream(streamId, flags, RequestStreamFrame.initialRequestN(buf, off), buf,
                        metadataOffset, metadataLength, dataOffset, dataLength);
                return;
            case FrameType.REQUEST_CHANNEL:
                handler.requestChannel(streamId, flags, RequestChannelFrame.initialRequestN(buf, off), buf,
                        metadataOffset, metadataLength, dataOffset, dataLength);
                return;
            case FrameType.PAYLOAD:
                handler.payload(streamId, flags, buf, metadataOffset, metadataLength, dataOffset, dataLength);
                return;
            default:
                handler.ext(streamId, flags, ExtFrame.extendedType(buf, off), buf, metadataOffset, metadataLength,
                        dataOffset, dataLength);
        }
    }
}
