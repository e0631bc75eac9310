package dev.sluice.rpc.interop;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.rsocket.Payload;
import io.rsocket.metadata.CompositeMetadata;
import io.rsocket.metadata.CompositeMetadataCodec;
import io.rsocket.metadata.RoutingMetadata;
import io.rsocket.metadata.TaggingMetadataCodec;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.util.ByteBufPayload;
import java.util.List;

/**
 * The RPC wire format written and read with rsocket-java's own metadata codecs, as a user of rsocket-java would:
 * composite metadata with a routing entry holding {@code package.Service/Method}, protobuf bytes as data.
 */
final class JavaRouting {

    private JavaRouting() {
    }

    /** A payload for {@code route} carrying {@code message}, in rsocket-java's types. */
    static Payload call(String route, MessageLite message) {
        CompositeByteBuf md = ByteBufAllocator.DEFAULT.compositeBuffer();
        RoutingMetadata routing = TaggingMetadataCodec.createRoutingMetadata(ByteBufAllocator.DEFAULT, List.of(route));
        CompositeMetadataCodec.encodeAndAddMetadata(md, ByteBufAllocator.DEFAULT,
            WellKnownMimeType.MESSAGE_RSOCKET_ROUTING, routing.getContent());
        return ByteBufPayload.create(Unpooled.wrappedBuffer(message.toByteArray()), md);
    }

    /** A payload holding only {@code message}, without metadata (a channel's later frames). */
    static Payload message(MessageLite message) {
        return ByteBufPayload.create(Unpooled.wrappedBuffer(message.toByteArray()));
    }

    /** The route (first routing tag) of a received payload, or null. Borrows the payload. */
    static String route(Payload payload) {
        if (!payload.hasMetadata()) {
            return null;
        }
        for (CompositeMetadata.Entry entry : new CompositeMetadata(payload.metadata(), false)) {
            if (WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.getString().equals(entry.getMimeType())) {
                for (String tag : new RoutingMetadata(entry.getContent())) {
                    return tag;
                }
            }
        }
        return null;
    }

    /** The message in a received payload's data; releases the payload. */
    static <T> T parseAndRelease(Payload payload, Parser<T> parser) {
        try {
            ByteBuf data = payload.data();
            return parser.parseFrom(ByteBufUtil.getBytes(data));
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
        } finally {
            payload.release();
        }
    }
}
