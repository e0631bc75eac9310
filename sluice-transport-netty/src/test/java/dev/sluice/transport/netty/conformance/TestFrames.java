package dev.sluice.transport.netty.conformance;

import dev.sluice.frame.CancelFrame;
import dev.sluice.frame.ErrorFrame;
import dev.sluice.frame.ExtFrame;
import dev.sluice.frame.KeepAliveFrame;
import dev.sluice.frame.LeaseFrame;
import dev.sluice.frame.MetadataPushFrame;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.frame.RequestChannelFrame;
import dev.sluice.frame.RequestFnfFrame;
import dev.sluice.frame.RequestNFrame;
import dev.sluice.frame.RequestResponseFrame;
import dev.sluice.frame.RequestStreamFrame;
import dev.sluice.frame.ResumeFrame;
import dev.sluice.frame.SetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * Frames for scripted peers, built with sluice-frame's encoders (valid frames) or byte by byte (the invalid ones
 * the encoders refuse to write). Each returns a new heap buffer that {@code ScriptedPeer.send} takes over.
 */
final class TestFrames {

    static final String MIME = "application/binary";

    private TestFrames() {
    }

    /** A version 1.0 SETUP with a 30 s keep-alive interval and a 90 s max lifetime: no timer fires in a test. */
    static ByteBuf setup() {
        return setup(30_000, 90_000);
    }

    static ByteBuf setup(int keepAliveMillis, int maxLifetimeMillis) {
        ByteBuf out = Unpooled.buffer();
        SetupFrame.encode(out, false, keepAliveMillis, maxLifetimeMillis, null, MIME, MIME, null, null);
        return out;
    }

    static ByteBuf setup(int major, int minor, boolean lease, ByteBuf resumeToken) {
        ByteBuf out = Unpooled.buffer();
        SetupFrame.encode(out, major, minor, lease, 30_000, 90_000, resumeToken, MIME, MIME, null, null);
        return out;
    }

    static ByteBuf resume() {
        ByteBuf out = Unpooled.buffer();
        ResumeFrame.encode(out, utf8("token"), 0, 0);
        return out;
    }

    static ByteBuf lease(int ttlMillis, int n) {
        ByteBuf out = Unpooled.buffer();
        LeaseFrame.encode(out, ttlMillis, n, null);
        return out;
    }

    static ByteBuf keepAlive(boolean respond, String data) {
        ByteBuf out = Unpooled.buffer();
        KeepAliveFrame.encode(out, respond, 0, utf8(data));
        return out;
    }

    static ByteBuf requestResponse(int streamId, String data) {
        ByteBuf out = Unpooled.buffer();
        RequestResponseFrame.encode(out, streamId, false, null, utf8(data));
        return out;
    }

    static ByteBuf requestResponse(int streamId, boolean follows, String metadata, String data) {
        ByteBuf out = Unpooled.buffer();
        RequestResponseFrame.encode(out, streamId, follows, metadata == null ? null : utf8(metadata), utf8(data));
        return out;
    }

    static ByteBuf requestFnf(int streamId, String data) {
        ByteBuf out = Unpooled.buffer();
        RequestFnfFrame.encode(out, streamId, false, null, utf8(data));
        return out;
    }

    static ByteBuf requestStream(int streamId, long n, String data) {
        ByteBuf out = Unpooled.buffer();
        RequestStreamFrame.encode(out, streamId, false, n, null, utf8(data));
        return out;
    }

    static ByteBuf requestChannel(int streamId, long n, boolean complete, String data) {
        ByteBuf out = Unpooled.buffer();
        RequestChannelFrame.encode(out, streamId, false, complete, n, null, utf8(data));
        return out;
    }

    static ByteBuf requestN(int streamId, long n) {
        ByteBuf out = Unpooled.buffer();
        RequestNFrame.encode(out, streamId, n);
        return out;
    }

    static ByteBuf cancel(int streamId) {
        ByteBuf out = Unpooled.buffer();
        CancelFrame.encode(out, streamId);
        return out;
    }

    static ByteBuf next(int streamId, String data) {
        return payload(streamId, false, false, true, null, data);
    }

    static ByteBuf complete(int streamId) {
        return payload(streamId, false, true, false, null, "");
    }

    static ByteBuf payload(int streamId, boolean follows, boolean complete, boolean next, String metadata,
                           String data) {
        ByteBuf out = Unpooled.buffer();
        PayloadFrame.encode(out, streamId, follows, complete, next, metadata == null ? null : utf8(metadata),
            utf8(data));
        return out;
    }

    static ByteBuf error(int streamId, int code, String message) {
        ByteBuf out = Unpooled.buffer();
        ErrorFrame.encode(out, streamId, code, message);
        return out;
    }

    static ByteBuf metadataPush(String metadata) {
        ByteBuf out = Unpooled.buffer();
        MetadataPushFrame.encode(out, utf8(metadata));
        return out;
    }

    static ByteBuf ext(int streamId, boolean ignorable, int extendedType) {
        ByteBuf out = Unpooled.buffer();
        ExtFrame.encode(out, streamId, ignorable, extendedType, null, utf8("ext"));
        return out;
    }

    /** A frame written byte by byte: a header with any stream, type and flags, then {@code body}. */
    static ByteBuf raw(int streamId, int type, int flags, byte... body) {
        ByteBuf out = Unpooled.buffer();
        out.writeInt(streamId);
        out.writeShort(type << 10 | flags);
        out.writeBytes(body);
        return out;
    }

    /** A view of the UTF-8 bytes of {@code s}; a wrapped array, which needs no release. */
    static ByteBuf utf8(String s) {
        return Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.UTF_8));
    }
}
