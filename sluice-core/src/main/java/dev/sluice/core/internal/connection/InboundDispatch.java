package dev.sluice.core.internal.connection;

import dev.sluice.frame.ErrorFrame;
import dev.sluice.frame.ExtFrame;
import dev.sluice.frame.FrameFlags;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.FrameValidator;
import dev.sluice.frame.KeepAliveFrame;
import dev.sluice.frame.LeaseFrame;
import dev.sluice.frame.MetadataPushFrame;
import dev.sluice.frame.PayloadSection;
import dev.sluice.frame.RequestChannelFrame;
import dev.sluice.frame.RequestNFrame;
import dev.sluice.frame.RequestStreamFrame;
import io.netty.buffer.ByteBuf;

/** Validates one frame and calls the {@link InboundFrames} method of its type with decoded fields. */
final class InboundDispatch {

    private InboundDispatch() {
    }

    static void read(ByteBuf buf, int off, int len, InboundFrames h) {
        String problem = FrameValidator.validate(buf, off, len);
        if (problem != null) {
            if (len >= FrameHeader.SIZE && (FrameValidator.ignorable(buf, off) || ignoredOnItsStream(buf, off))) {
                if (FrameValidator.ignorable(buf, off)) {
                    return;
                }
                int type = FrameHeader.frameType(buf, off);
                h.ignoredOnItsStream(type);
                return;
            }
            h.malformed(problem);
            return;
        }
        int type = FrameHeader.frameType(buf, off);
        int streamId = FrameHeader.streamId(buf, off);
        int flags = FrameHeader.flags(buf, off);
        switch (type) {
            case FrameType.SETUP -> h.setup(buf, off, len);
            case FrameType.RESUME -> h.resume(buf, off, len);
            case FrameType.RESUME_OK -> h.resumeOk(buf, off, len);
            case FrameType.LEASE -> h.lease(LeaseFrame.ttlMillis(buf, off), LeaseFrame.numberOfRequests(buf, off),
                buf, LeaseFrame.metadataOffset(buf, off), LeaseFrame.metadataLength(buf, off, len));
            case FrameType.KEEPALIVE -> h.keepAlive((flags & FrameFlags.RESPOND) != 0,
                KeepAliveFrame.lastReceivedPosition(buf, off), buf, KeepAliveFrame.dataOffset(buf, off),
                KeepAliveFrame.dataLength(buf, off, len));
            case FrameType.REQUEST_RESPONSE -> h.requestResponse(streamId, flags, buf,
                PayloadSection.metadataOffset(buf, off, FrameHeader.SIZE),
                PayloadSection.metadataLength(buf, off, len, FrameHeader.SIZE),
                PayloadSection.dataOffset(buf, off, len, FrameHeader.SIZE),
                PayloadSection.dataLength(buf, off, len, FrameHeader.SIZE));
            case FrameType.REQUEST_FNF -> h.requestFireAndForget(streamId, flags, buf,
                PayloadSection.metadataOffset(buf, off, FrameHeader.SIZE),
                PayloadSection.metadataLength(buf, off, len, FrameHeader.SIZE),
                PayloadSection.dataOffset(buf, off, len, FrameHeader.SIZE),
                PayloadSection.dataLength(buf, off, len, FrameHeader.SIZE));
            case FrameType.REQUEST_STREAM -> h.requestStream(streamId, flags,
                RequestStreamFrame.initialRequestN(buf, off), buf,
                PayloadSection.metadataOffset(buf, off, FrameHeader.SIZE + 4),
                PayloadSection.metadataLength(buf, off, len, FrameHeader.SIZE + 4),
                PayloadSection.dataOffset(buf, off, len, FrameHeader.SIZE + 4),
                PayloadSection.dataLength(buf, off, len, FrameHeader.SIZE + 4));
            case FrameType.REQUEST_CHANNEL -> h.requestChannel(streamId, flags,
                RequestChannelFrame.initialRequestN(buf, off), buf,
                PayloadSection.metadataOffset(buf, off, FrameHeader.SIZE + 4),
                PayloadSection.metadataLength(buf, off, len, FrameHeader.SIZE + 4),
                PayloadSection.dataOffset(buf, off, len, FrameHeader.SIZE + 4),
                PayloadSection.dataLength(buf, off, len, FrameHeader.SIZE + 4));
            case FrameType.PAYLOAD -> h.payload(streamId, flags, buf,
                PayloadSection.metadataOffset(buf, off, FrameHeader.SIZE),
                PayloadSection.metadataLength(buf, off, len, FrameHeader.SIZE),
                PayloadSection.dataOffset(buf, off, len, FrameHeader.SIZE),
                PayloadSection.dataLength(buf, off, len, FrameHeader.SIZE));
            case FrameType.REQUEST_N -> h.requestN(streamId, RequestNFrame.requestN(buf, off));
            case FrameType.CANCEL -> h.cancel(streamId);
            case FrameType.ERROR -> h.error(streamId, ErrorFrame.errorCode(buf, off), buf,
                ErrorFrame.messageOffset(buf, off), ErrorFrame.messageLength(buf, off, len));
            case FrameType.METADATA_PUSH -> h.metadataPush(streamId, buf, MetadataPushFrame.metadataOffset(buf, off),
                MetadataPushFrame.metadataLength(buf, off, len));
            case FrameType.EXT -> h.ext(streamId, flags, ExtFrame.extendedType(buf, off), buf,
                ExtFrame.metadataOffset(buf, off), ExtFrame.metadataLength(buf, off, len),
                ExtFrame.dataOffset(buf, off, len), ExtFrame.dataLength(buf, off, len));
            default -> {
            }
        }
    }

    private static boolean ignoredOnItsStream(ByteBuf buf, int off) {
        int type = FrameHeader.frameType(buf, off);
        if (FrameHeader.streamId(buf, off) == 0) {
            return type == FrameType.CANCEL || type == FrameType.PAYLOAD || type == FrameType.REQUEST_N;
        }
        return type == FrameType.METADATA_PUSH;
    }
}
