package dev.sluice.core.internal.connection;

import dev.sluice.core.Limits;
import dev.sluice.core.Payload;
import dev.sluice.core.RequestType;
import dev.sluice.core.ResponderMetrics;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.internal.lease.ConnectionLeases;
import dev.sluice.core.internal.lease.ResponderObserver;
import dev.sluice.core.internal.metrics.BothObservers;
import dev.sluice.core.internal.metrics.RequestMetering;
import dev.sluice.core.internal.stream.Errors;
import dev.sluice.core.internal.stream.Frames;
import dev.sluice.core.internal.stream.Responders;
import dev.sluice.core.internal.stream.Stream;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.ErrorFrame;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameReader;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * What each inbound frame does to one connection: the frame reader's handler. Requests start responder streams
 * (after the lease check, and reassembly when fragmented), stream frames go to the registered stream, connection
 * frames to keep-alive, leasing or the close sequence.
 *
 * <p>Event-loop confined. Buffers are borrowed for the call; payloads handed on are retained slices.
 */
final class InboundFrames implements FrameReader.Handler {

    /** The smallest frame a non-final fragment may be: the minimum MTU less the 3-byte length prefix. */
    static final int MIN_FRAGMENT_LENGTH = Limits.MIN_MTU - 3;

    private final RSocketConnection connection;
    private final StreamRegistry streams;
    private final ConnectionConfig config;
    private final boolean client;
    /** The length of the frame being read, set by the connection before each read: the fragment check needs it. */
    int frameLength;
    /**
     * The last frame's payload if it was released before its dispatch returned (most are: see Payload.endBorrow),
     * to carry the next one; null otherwise. Cleared while a dispatch runs, so a nested read never shares it.
     */
    private Payload spare;

    InboundFrames(RSocketConnection connection, StreamRegistry streams, ConnectionConfig config, boolean client) {
        this.connection = connection;
        this.streams = streams;
        this.config = config;
        this.client = client;
    }

    // --- connection frames -----------------------------------------------------------------------------------

    @Override
    public void setup(ByteBuf buf, int off, int len) {
        if (connection.awaitingSetup()) {
            connection.onSetup(buf, off, len);
        }
        // A second SETUP, or SETUP at a client, is ignored, as the spec's "handling the unexpected" says.
    }

    @Override
    public void resume(ByteBuf buf, int off, int len) {
        if (connection.awaitingSetup()) {
            connection.rejectSetup(ErrorCodes.REJECTED_RESUME, "resume not supported");
        } else {
            connection.connectionError(ErrorCodes.CONNECTION_ERROR, "RESUME received on an established connection");
        }
    }

    @Override
    public void resumeOk(ByteBuf buf, int off, int len) {
        notBeforeSetup(FrameType.RESUME_OK);
    }

    @Override
    public void lease(long ttlMillis, int numberOfRequests, ByteBuf buf, int metadataOffset, int metadataLength) {
        if (notBeforeSetup(FrameType.LEASE)) {
            return;
        }
        ConnectionLeases leases = connection.leases();
        if (leases != null) {
            leases.onLeaseReceived(ttlMillis, numberOfRequests);
        }
    }

    @Override
    public void keepAlive(boolean respond, long lastReceivedPosition, ByteBuf buf, int dataOffset,
                          int dataLength) {
        if (!notBeforeSetup(FrameType.KEEPALIVE)) {
            connection.keepAlive().onKeepAlive(respond, buf, dataOffset, dataLength);
        }
    }

    @Override
    public void metadataPush(int streamId, ByteBuf buf, int metadataOffset, int metadataLength) {
        if (notBeforeSetup(FrameType.METADATA_PUSH) || streamId != 0) {
            return; // spec: METADATA_PUSH on a non-zero stream is ignored
        }
        Payload p = Payload.create(null, metadataLength == 0 ? Unpooled.EMPTY_BUFFER
            : buf.retainedSlice(metadataOffset, metadataLength));
        Responders.metadataPush(connection.handler(), p);
    }

    @Override
    public void ext(int streamId, int flags, int extendedType, ByteBuf buf, int metadataOffset,
                    int metadataLength, int dataOffset, int dataLength) {
        if (notBeforeSetup(FrameType.EXT)) {
            return;
        }
        // No extension is understood here, so an EXT frame is one "not understood": ignored when its I flag
        // allows it, a connection error otherwise (the spec's "Handling Ignore Flag").
        if ((flags & FrameFlags.IGNORE) == 0) {
            connection.connectionError(ErrorCodes.CONNECTION_ERROR, "EXT frame with extended type " + extendedType
                + " not understood and its I flag is clear");
        }
    }

    @Override
    public void malformed(String problem) {
        connection.connectionError(connection.awaitingSetup() ? ErrorCodes.INVALID_SETUP
            : ErrorCodes.CONNECTION_ERROR, "malformed frame: " + problem);
    }

    @Override
    public void error(int streamId, int errorCode, ByteBuf buf, int messageOffset, int messageLength) {
        if (notBeforeSetup(FrameType.ERROR)) {
            return;
        }
        String message = ErrorFrame.message(buf, messageOffset - ErrorFrame.MESSAGE_OFFSET,
            ErrorFrame.MESSAGE_OFFSET + messageLength);
        if (streamId != 0) {
            streams.dropReassembly(streamId);
            Stream st = streams.get(streamId);
            if (st != null) {
                st.onErrorFrame(Errors.fromFrame(errorCode, message));
            }
            return;
        }
        connection.onConnectionErrorFrame(errorCode, message);
    }

    // --- stream frames ---------------------------------------------------------------------------------------

    @Override
    public void requestN(int streamId, long n) {
        if (notBeforeSetup(FrameType.REQUEST_N)) {
            return;
        }
        Stream st = streams.get(streamId);
        if (st != null) {
            st.onRequestN(n);
        }
    }

    @Override
    public void cancel(int streamId) {
        if (notBeforeSetup(FrameType.CANCEL)) {
            return;
        }
        streams.dropReassembly(streamId);
        Stream st = streams.get(streamId);
        if (st != null) {
            st.onCancel();
        }
    }

    @Override
    public void requestResponse(int streamId, int flags, ByteBuf buf, int metadataOffset, int metadataLength,
                                int dataOffset, int dataLength) {
        request(FrameType.REQUEST_RESPONSE, streamId, flags, 0, buf, metadataOffset, metadataLength, dataOffset,
            dataLength);
    }

    @Override
    public void requestFireAndForget(int streamId, int flags, ByteBuf buf, int metadataOffset, int metadataLength,
                                     int dataOffset, int dataLength) {
        request(FrameType.REQUEST_FNF, streamId, flags, 0, buf, metadataOffset, metadataLength, dataOffset,
            dataLength);
    }

    @Override
    public void requestStream(int streamId, int flags, long initialRequestN, ByteBuf buf, int metadataOffset,
                              int metadataLength, int dataOffset, int dataLength) {
        request(FrameType.REQUEST_STREAM, streamId, flags, initialRequestN, buf, metadataOffset, metadataLength,
            dataOffset, dataLength);
    }

    @Override
    public void requestChannel(int streamId, int flags, long initialRequestN, ByteBuf buf, int metadataOffset,
                               int metadataLength, int dataOffset, int dataLength) {
        request(FrameType.REQUEST_CHANNEL, streamId, flags, initialRequestN, buf, metadataOffset, metadataLength,
            dataOffset, dataLength);
    }

    @Override
    public void payload(int streamId, int flags, ByteBuf buf, int metadataOffset, int metadataLength,
                        int dataOffset, int dataLength) {
        if (notBeforeSetup(FrameType.PAYLOAD)) {
            return;
        }
        Reassembly r = streams.reassembly(streamId);
        if (r != null) {
            addFragment(streamId, r, flags, buf, metadataOffset, metadataLength, dataOffset, dataLength);
            return;
        }
        Stream st = streams.get(streamId);
        if (st == null) {
            return; // unknown stream: ignored
        }
        if ((flags & FrameFlags.FOLLOWS) != 0 && (flags & FrameFlags.COMPLETE) == 0) {
            r = new Reassembly(FrameType.PAYLOAD, 0, flags, config.maxInboundPayloadSize(), ResponderObserver.NOOP);
            streams.putReassembly(streamId, r);
            addFragment(streamId, r, flags, buf, metadataOffset, metadataLength, dataOffset, dataLength);
            return;
        }
        if ((flags & FrameFlags.NEXT) != 0) {
            // The frame is ours until onFrame returns: a payload released before then never counts a reference.
            Payload p = Frames.borrowedPayload(spare, buf, metadataOffset, metadataLength, dataOffset, dataLength);
            spare = null;
            try {
                st.onNextFrame(p, (flags & FrameFlags.COMPLETE) != 0);
            } finally {
                spare = Frames.endBorrow(p);
            }
        } else {
            st.onCompleteFrame();
        }
    }

    private void request(int type, int streamId, int flags, long initialN, ByteBuf buf, int mdOff, int mdLen,
                         int dataOff, int dataLen) {
        if (notBeforeSetup(type)) {
            return;
        }
        if ((streamId & 1) == (client ? 1 : 0)) {
            connection.connectionError(ErrorCodes.CONNECTION_ERROR, FrameType.name(type) + " on stream " + streamId
                + ": requests from the " + (client ? "server must use even" : "client must use odd")
                + " stream ids");
            return;
        }
        if (streams.inUse(streamId)) {
            return; // the spec: a request on a stream id in use is ignored
        }
        boolean fnf = type == FrameType.REQUEST_FNF;
        RequestMetering metering = connection.metering();
        if (connection.closing()) {
            if (!fnf) {
                streams.writeError(streamId, ErrorCodes.REJECTED, "connection is closing");
            }
            if (metering != null) {
                metering.rejected(RequestType.fromFrameType(type), ResponderMetrics.CONNECTION_CLOSING);
            }
            return;
        }
        if (streams.active() >= config.maxActiveStreams()) {
            if (!fnf) {
                streams.writeError(streamId, ErrorCodes.REJECTED, "too many active streams: limit maxActiveStreams="
                    + config.maxActiveStreams() + " reached");
            }
            if (metering != null) {
                metering.rejected(RequestType.fromFrameType(type), ResponderMetrics.TOO_MANY_STREAMS);
            }
            return;
        }
        ResponderObserver obs = ResponderObserver.NOOP;
        ConnectionLeases leases = connection.leases();
        if (leases != null) {
            // One permit per request, taken when its first frame arrives: never per fragment.
            RequestType requestType = RequestType.fromFrameType(type);
            obs = leases.admit(requestType, mdLen <= 0 ? Unpooled.EMPTY_BUFFER : buf.slice(mdOff, mdLen));
            if (obs == null) {
                if (!fnf) {
                    streams.writeError(streamId, ErrorCodes.REJECTED, leases.lastRejection());
                }
                if (metering != null) {
                    metering.rejected(requestType, leases.lastRejection());
                }
                return;
            }
        }
        if (metering != null) {
            obs = BothObservers.of(obs, metering.admit(RequestType.fromFrameType(type)));
        }
        if ((flags & FrameFlags.FOLLOWS) != 0) {
            Reassembly r = new Reassembly(type, initialN, flags, config.maxInboundPayloadSize(), obs);
            streams.putReassembly(streamId, r);
            addFragment(streamId, r, flags, buf, mdOff, mdLen, dataOff, dataLen);
            return;
        }
        Payload payload = Frames.borrowedPayload(spare, buf, mdOff, mdLen, dataOff, dataLen);
        spare = null;
        try {
            Responders.start(streams, connection.handler(), type, streamId, initialN,
                (flags & FrameFlags.COMPLETE) != 0, payload, obs);
        } finally {
            spare = Frames.endBorrow(payload);
        }
    }

    /** Adds a fragment; when it is the last one, delivers the whole payload. */
    private void addFragment(int streamId, Reassembly r, int flags, ByteBuf buf, int mdOff, int mdLen,
                             int dataOff, int dataLen) {
        // A PAYLOAD with both F and C ends the sequence: the spec says C overrides F.
        boolean last = (flags & FrameFlags.FOLLOWS) == 0 || (flags & FrameFlags.COMPLETE) != 0;
        if (!last && frameLength < MIN_FRAGMENT_LENGTH) {
            // Senders fill every fragment but the last up to their MTU (at least 64 with the length prefix), so a
            // smaller one is a flood: each fragment costs a slice and a component, far more than its bytes.
            streams.dropReassembly(streamId);
            connection.connectionError(ErrorCodes.CONNECTION_ERROR, "fragment of " + frameLength + " bytes on stream "
                + streamId + ": fragments other than the last must be at least " + MIN_FRAGMENT_LENGTH
                + " bytes (the minimum MTU of " + Limits.MIN_MTU + " less the length prefix)");
            return;
        }
        String problem = r.add(connection.alloc(), buf, mdOff, mdLen, dataOff, dataLen);
        if (problem != null) {
            fragmentRefused(streamId, r, problem);
            return;
        }
        if (!last) {
            return;
        }
        streams.takeReassembly(streamId);
        ByteBuf md = r.takeMetadata();
        ByteBuf data = r.takeData();
        boolean hadMetadata = md != null || (r.firstFlags & FrameFlags.METADATA) != 0;
        Payload payload = Payload.create(data, md != null ? md : hadMetadata ? Unpooled.EMPTY_BUFFER : null);
        boolean complete = (flags & FrameFlags.COMPLETE) != 0;
        if (r.frameType == FrameType.PAYLOAD) {
            Stream st = streams.get(streamId);
            if (st == null) {
                payload.release();
            } else {
                st.onNextFrame(payload, complete);
            }
        } else {
            Responders.start(streams, connection.handler(), r.frameType, streamId, r.initialRequestN,
                complete || (r.firstFlags & FrameFlags.COMPLETE) != 0, payload, r.observer);
        }
    }

    private void fragmentRefused(int streamId, Reassembly r, String problem) {
        if (r.frameType != FrameType.PAYLOAD) {
            streams.takeReassembly(streamId);
            if (r.frameType != FrameType.REQUEST_FNF) {
                streams.writeError(streamId, ErrorCodes.REJECTED, problem);
            }
            r.refuse(streamId, new RejectedException(problem));
            return;
        }
        streams.dropReassembly(streamId);
        Stream st = streams.get(streamId);
        if (st != null) {
            // An inbound payload of an active stream: end that stream, tell the peer, keep the connection.
            streams.remove(streamId, st);
            if ((streamId & 1) == (client ? 1 : 0)) {
                streams.writeCancel(streamId);
            } else {
                streams.writeError(streamId, ErrorCodes.INVALID, problem);
            }
            st.onConnectionClosed(new RejectedException(problem));
        }
    }

    /** Refuses any frame but SETUP or RESUME before the handshake; true when it did. */
    private boolean notBeforeSetup(int type) {
        if (!connection.awaitingSetup()) {
            return false;
        }
        connection.rejectSetup(ErrorCodes.INVALID_SETUP, "SETUP or RESUME frame must be received before any others,"
            + " got " + FrameType.name(type));
        return true;
    }
}
