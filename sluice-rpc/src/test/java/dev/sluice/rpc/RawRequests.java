package dev.sluice.rpc;

import dev.sluice.core.Payload;
import dev.sluice.frame.metadata.CompositeMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;

/** Payloads built by hand, as a foreign or broken client would send them. */
final class RawRequests {

    private RawRequests() {
    }

    /** Composite metadata with one routing entry holding {@code route}. */
    static ByteBuf routing(String route) {
        ByteBuf md = Unpooled.buffer();
        CompositeMetadata.addRoutingEntry(md, List.of(route));
        return md;
    }

    /** A payload routed to {@code route} with {@code data} as its bytes. */
    static Payload routed(String route, byte[] data) {
        return Payload.create(Unpooled.wrappedBuffer(data), routing(route));
    }

    /** Bytes that no message parses: a length-delimited field 1 claiming 5 bytes, followed by one. */
    static byte[] truncatedMessage() {
        return new byte[] {0x0A, 0x05, 'a'};
    }
}
