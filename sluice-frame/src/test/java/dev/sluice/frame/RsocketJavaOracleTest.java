package dev.sluice.frame;

import static dev.sluice.frame.TestBuffers.ascii;
import static dev.sluice.frame.TestBuffers.readable;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rsocket.exceptions.ApplicationErrorException;
import io.rsocket.exceptions.ConnectionCloseException;
import io.rsocket.exceptions.CustomRSocketException;
import io.rsocket.exceptions.Exceptions;
import io.rsocket.exceptions.RejectedException;
import io.rsocket.frame.CancelFrameCodec;
import io.rsocket.frame.ErrorFrameCodec;
import io.rsocket.frame.ExtensionFrameCodec;
import io.rsocket.frame.FrameHeaderCodec;
import io.rsocket.frame.KeepAliveFrameCodec;
import io.rsocket.frame.LeaseFrameCodec;
import io.rsocket.frame.MetadataPushFrameCodec;
import io.rsocket.frame.PayloadFrameCodec;
import io.rsocket.frame.RequestChannelFrameCodec;
import io.rsocket.frame.RequestFireAndForgetFrameCodec;
import io.rsocket.frame.RequestNFrameCodec;
import io.rsocket.frame.RequestResponseFrameCodec;
import io.rsocket.frame.RequestStreamFrameCodec;
import io.rsocket.frame.ResumeFrameCodec;
import io.rsocket.frame.ResumeOkFrameCodec;
import io.rsocket.frame.SetupFrameCodec;
import io.rsocket.util.DefaultPayload;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * rsocket-java 1.1.5, the reference implementation, as an oracle: for every frame type it has, its codecs decode
 * what we encode ("ours to theirs") and we decode what its codecs encode ("theirs to ours"), field by field.
 *
 * <p>Their encoders take ownership of the buffers passed in and their frames are often composite buffers, which
 * also exercises our absolute-index readers across components.
 */
class RsocketJavaOracleTest {

    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private final TestBuffers bufs = new TestBuffers();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Ours to theirs.

    @ParameterizedTest(name = "lease={0} token={1} metadata={2}")
    @CsvSource(nullValues = "null", value = {"true, tok, md", "false, null, null", "false, null, ''"})
    void setupOursToTheirs(boolean lease, String token, String metadata) {
        ByteBuf out = bufs.buffer();
        SetupFrame.encode(out, lease, 500, 90_000, token == null ? null : bufs.utf8(token),
                "message/x.rsocket.composite-metadata.v0", "application/json",
                metadata == null ? null : bufs.utf8(metadata), bufs.utf8("data"));

        assertThat(FrameHeaderCodec.frameType(out)).isEqualTo(io.rsocket.frame.FrameType.SETUP);
        assertThat(FrameHeaderCodec.streamId(out)).isZero();
        assertThat(SetupFrameCodec.isSupportedVersion(out)).isTrue();
        assertThat(SetupFrameCodec.honorLease(out)).isEqualTo(lease);
        assertThat(SetupFrameCodec.resumeEnabled(out)).isEqualTo(token != null);
        assertThat(readable(SetupFrameCodec.resumeToken(out))).isEqualTo(token == null ? new byte[0] : ascii(token));
        assertThat(SetupFrameCodec.keepAliveInterval(out)).isEqualTo(500);
        assertThat(SetupFrameCodec.keepAliveMaxLifetime(out)).isEqualTo(90_000);
        assertThat(SetupFrameCodec.metadataMimeType(out)).isEqualTo("message/x.rsocket.composite-metadata.v0");
        assertThat(SetupFrameCodec.dataMimeType(out)).isEqualTo("application/json");
        if (metadata == null) {
            assertThat(SetupFrameCodec.metadata(out)).isNull();
        } else {
            assertThat(readable(SetupFrameCodec.metadata(out))).isEqualTo(ascii(metadata));
        }
        assertThat(readable(SetupFrameCodec.data(out))).isEqualTo(ascii("data"));
    }

    @Test
    void leaseKeepAliveAndMetadataPushOursToTheirs() {
        ByteBuf lease = bufs.buffer();
        LeaseFrame.encode(lease, 1000, 200, bufs.utf8("lm"));
        assertThat(LeaseFrameCodec.ttl(lease)).isEqualTo(1000);
        assertThat(LeaseFrameCodec.numRequests(lease)).isEqualTo(200);
        assertThat(readable(LeaseFrameCodec.metadata(lease))).isEqualTo(ascii("lm"));

        ByteBuf stop = bufs.buffer();
        LeaseFrame.encode(stop, 0, 0, null);
        assertThat(LeaseFrameCodec.ttl(stop)).isZero();
        assertThat(LeaseFrameCodec.numRequests(stop)).isZero();
        assertThat(LeaseFrameCodec.metadata(stop)).isNull();

        ByteBuf keepAlive = bufs.buffer();
        KeepAliveFrame.encode(keepAlive, true, 123_456_789_012L, bufs.of(1, 2, 3, 4, 5, 6, 7, 8));
        assertThat(KeepAliveFrameCodec.respondFlag(keepAlive)).isTrue();
        assertThat(KeepAliveFrameCodec.lastPosition(keepAlive)).isEqualTo(123_456_789_012L);
        assertThat(KeepAliveFrameCodec.data(keepAlive).getLong(0)).isEqualTo(0x0102030405060708L);

        ByteBuf push = bufs.buffer();
        MetadataPushFrame.encode(push, bufs.utf8("pushed"));
        assertThat(FrameHeaderCodec.frameType(push)).isEqualTo(io.rsocket.frame.FrameType.METADATA_PUSH);
        assertThat(FrameHeaderCodec.hasMetadata(push)).isTrue();
        assertThat(readable(MetadataPushFrameCodec.metadata(push))).isEqualTo(ascii("pushed"));
    }

    @ParameterizedTest(name = "follows={0} metadata={1} data={2}")
    @CsvSource(nullValues = "null", value = {"false, null, hi", "true, '', hi", "false, md, ''", "true, md, null"})
    void requestsOursToTheirs(boolean follows, String metadata, String data) {
        byte[] expectedData = data == null ? new byte[0] : ascii(data);

        ByteBuf rr = bufs.buffer();
        RequestResponseFrame.encode(rr, 1, follows, md(metadata), dt(data));
        assertThat(FrameHeaderCodec.frameType(rr)).isEqualTo(io.rsocket.frame.FrameType.REQUEST_RESPONSE);
        assertThat(FrameHeaderCodec.hasFollows(rr)).isEqualTo(follows);
        assertMetadata(RequestResponseFrameCodec.metadata(rr), metadata);
        assertThat(readable(RequestResponseFrameCodec.data(rr))).isEqualTo(expectedData);

        ByteBuf fnf = bufs.buffer();
        RequestFnfFrame.encode(fnf, 3, follows, md(metadata), dt(data));
        assertThat(FrameHeaderCodec.frameType(fnf)).isEqualTo(io.rsocket.frame.FrameType.REQUEST_FNF);
        assertThat(FrameHeaderCodec.streamId(fnf)).isEqualTo(3);
        assertMetadata(RequestFireAndForgetFrameCodec.metadata(fnf), metadata);
        assertThat(readable(RequestFireAndForgetFrameCodec.data(fnf))).isEqualTo(expectedData);

        ByteBuf stream = bufs.buffer();
        RequestStreamFrame.encode(stream, 5, follows, 42, md(metadata), dt(data));
        assertThat(FrameHeaderCodec.frameType(stream)).isEqualTo(io.rsocket.frame.FrameType.REQUEST_STREAM);
        assertThat(RequestStreamFrameCodec.initialRequestN(stream)).isEqualTo(42);
        assertMetadata(RequestStreamFrameCodec.metadata(stream), metadata);
        assertThat(readable(RequestStreamFrameCodec.data(stream))).isEqualTo(expectedData);

        ByteBuf channel = bufs.buffer();
        RequestChannelFrame.encode(channel, 7, follows, !follows, Long.MAX_VALUE, md(metadata), dt(data));
        assertThat(FrameHeaderCodec.frameType(channel)).isEqualTo(io.rsocket.frame.FrameType.REQUEST_CHANNEL);
        assertThat(FrameHeaderCodec.hasComplete(channel)).isEqualTo(!follows);
        assertThat(RequestChannelFrameCodec.initialRequestN(channel)).isEqualTo(Long.MAX_VALUE);
        assertMetadata(RequestChannelFrameCodec.metadata(channel), metadata);
        assertThat(readable(RequestChannelFrameCodec.data(channel))).isEqualTo(expectedData);
    }

    @ParameterizedTest(name = "complete={0} next={1}")
    @CsvSource({"false, true, NEXT", "true, false, COMPLETE", "true, true, NEXT_COMPLETE"})
    void payloadOursToTheirs(boolean complete, boolean next, io.rsocket.frame.FrameType theirType) {
        ByteBuf out = bufs.buffer();
        PayloadFrame.encode(out, 9, false, complete, next, bufs.utf8("m"), bufs.utf8("payload"));
        // Their frameType() folds PAYLOAD's N/C flags into pseudo types that never appear on the wire.
        assertThat(FrameHeaderCodec.frameType(out)).isEqualTo(theirType);
        assertThat(FrameHeaderCodec.nativeFrameType(out)).isEqualTo(io.rsocket.frame.FrameType.PAYLOAD);
        assertThat(FrameHeaderCodec.streamId(out)).isEqualTo(9);
        assertThat(readable(PayloadFrameCodec.metadata(out))).isEqualTo(ascii("m"));
        assertThat(readable(PayloadFrameCodec.data(out))).isEqualTo(ascii("payload"));
    }

    @Test
    void requestNCancelErrorOursToTheirs() {
        ByteBuf n = bufs.buffer();
        RequestNFrame.encode(n, 11, 1000);
        assertThat(RequestNFrameCodec.requestN(n)).isEqualTo(1000);
        ByteBuf unbounded = bufs.buffer();
        RequestNFrame.encode(unbounded, 11, Long.MAX_VALUE);
        assertThat(RequestNFrameCodec.requestN(unbounded)).isEqualTo(Long.MAX_VALUE);

        ByteBuf cancel = bufs.buffer();
        CancelFrame.encode(cancel, 11);
        assertThat(FrameHeaderCodec.frameType(cancel)).isEqualTo(io.rsocket.frame.FrameType.CANCEL);
        assertThat(FrameHeaderCodec.streamId(cancel)).isEqualTo(11);

        ByteBuf rejected = bufs.buffer();
        ErrorFrame.encode(rejected, 11, ErrorCodes.REJECTED, "lease_exhausted \u00e9");
        assertThat(ErrorFrameCodec.errorCode(rejected)).isEqualTo(ErrorFrameCodec.REJECTED);
        assertThat(ErrorFrameCodec.dataUtf8(rejected)).isEqualTo("lease_exhausted \u00e9");
        assertThat(Exceptions.from(11, rejected)).isInstanceOf(RejectedException.class)
                .hasMessage("lease_exhausted \u00e9");

        ByteBuf close = bufs.buffer();
        ErrorFrame.encode(close, 0, ErrorCodes.CONNECTION_CLOSE, "draining");
        assertThat(Exceptions.from(0, close)).isInstanceOf(ConnectionCloseException.class).hasMessage("draining");

        ByteBuf custom = bufs.buffer();
        ErrorFrame.encode(custom, 3, 0x301, "mine");
        assertThat(Exceptions.from(3, custom)).isInstanceOf(CustomRSocketException.class).hasMessage("mine");
    }

    @Test
    void resumeResumeOkAndExtOursToTheirs() {
        ByteBuf resume = bufs.buffer();
        ResumeFrame.encode(resume, bufs.utf8("token"), 100, 50);
        assertThat(FrameHeaderCodec.frameType(resume)).isEqualTo(io.rsocket.frame.FrameType.RESUME);
        assertThat(ResumeFrameCodec.version(resume)).isEqualTo(SetupFrameCodec.CURRENT_VERSION);
        assertThat(readable(ResumeFrameCodec.token(resume))).isEqualTo(ascii("token"));
        assertThat(ResumeFrameCodec.lastReceivedServerPos(resume)).isEqualTo(100);
        assertThat(ResumeFrameCodec.firstAvailableClientPos(resume)).isEqualTo(50);

        ByteBuf ok = bufs.buffer();
        ResumeOkFrame.encode(ok, 77);
        assertThat(ResumeOkFrameCodec.lastReceivedClientPos(ok)).isEqualTo(77);

        ByteBuf ext = bufs.buffer();
        ExtFrame.encode(ext, 3, true, 0x1234, bufs.utf8("m"), bufs.utf8("d"));
        assertThat(FrameHeaderCodec.frameType(ext)).isEqualTo(io.rsocket.frame.FrameType.EXT);
        assertThat(ExtensionFrameCodec.extendedType(ext)).isEqualTo(0x1234);
        assertThat(readable(ExtensionFrameCodec.metadata(ext))).isEqualTo(ascii("m"));
        assertThat(readable(ExtensionFrameCodec.data(ext))).isEqualTo(ascii("d"));
    }

    // ---------------------------------------------------------------------------------------------------------
    // Theirs to ours.

    @Test
    void setupTheirsToOurs() {
        ByteBuf frame = SetupFrameCodec.encode(ALLOC, true, 20_000, 90_000, Unpooled.wrappedBuffer(ascii("tok")),
                "application/cbor", "text/plain", DefaultPayload.create(ascii("data"), ascii("meta")));
        try {
            int off = frame.readerIndex();
            int len = frame.readableBytes();
            assertThat(FrameValidator.validate(frame, off, len)).isNull();
            assertThat(FrameHeader.frameType(frame, off)).isEqualTo(FrameType.SETUP);
            assertThat(SetupFrame.majorVersion(frame, off)).isEqualTo(1);
            assertThat(SetupFrame.minorVersion(frame, off)).isEqualTo(0);
            assertThat(SetupFrame.leaseEnabled(frame, off)).isTrue();
            assertThat(SetupFrame.keepAliveIntervalMillis(frame, off)).isEqualTo(20_000);
            assertThat(SetupFrame.maxLifetimeMillis(frame, off)).isEqualTo(90_000);
            assertThat(TestBuffers.bytes(frame, SetupFrame.resumeTokenOffset(frame, off),
                    SetupFrame.resumeTokenLength(frame, off))).isEqualTo(ascii("tok"));
            assertThat(SetupFrame.metadataMimeType(frame, off)).isEqualTo("application/cbor");
            assertThat(SetupFrame.dataMimeType(frame, off)).isEqualTo("text/plain");
            assertThat(TestBuffers.bytes(frame, SetupFrame.metadataOffset(frame, off),
                    SetupFrame.metadataLength(frame, off, len))).isEqualTo(ascii("meta"));
            assertThat(TestBuffers.bytes(frame, SetupFrame.dataOffset(frame, off, len),
                    SetupFrame.dataLength(frame, off, len))).isEqualTo(ascii("data"));
        } finally {
            frame.release();
        }
    }

    @Test
    void leaseKeepAliveMetadataPushTheirsToOurs() {
        ByteBuf lease = LeaseFrameCodec.encode(ALLOC, 5000, 30, Unpooled.wrappedBuffer(ascii("x")));
        try {
            int len = lease.readableBytes();
            assertThat(FrameValidator.validate(lease, 0, len)).isNull();
            assertThat(LeaseFrame.ttlMillis(lease, 0)).isEqualTo(5000);
            assertThat(LeaseFrame.numberOfRequests(lease, 0)).isEqualTo(30);
            assertThat(LeaseFrame.metadataLength(lease, 0, len)).isEqualTo(1);
        } finally {
            lease.release();
        }
        ByteBuf keepAlive = KeepAliveFrameCodec.encode(ALLOC, false, 99, Unpooled.wrappedBuffer(ascii("echo")));
        try {
            int len = keepAlive.readableBytes();
            assertThat(FrameValidator.validate(keepAlive, 0, len)).isNull();
            assertThat(KeepAliveFrame.respond(keepAlive, 0)).isFalse();
            assertThat(KeepAliveFrame.lastReceivedPosition(keepAlive, 0)).isEqualTo(99);
            assertThat(TestBuffers.bytes(keepAlive, KeepAliveFrame.dataOffset(keepAlive, 0),
                    KeepAliveFrame.dataLength(keepAlive, 0, len))).isEqualTo(ascii("echo"));
        } finally {
            keepAlive.release();
        }
        ByteBuf push = MetadataPushFrameCodec.encode(ALLOC, Unpooled.wrappedBuffer(ascii("pm")));
        try {
            int len = push.readableBytes();
            assertThat(FrameValidator.validate(push, 0, len)).isNull();
            assertThat(TestBuffers.bytes(push, MetadataPushFrame.metadataOffset(push, 0),
                    MetadataPushFrame.metadataLength(push, 0, len))).isEqualTo(ascii("pm"));
        } finally {
            push.release();
        }
    }

    @ParameterizedTest(name = "follows={0} metadata={1} data={2}")
    @CsvSource(nullValues = "null", value = {"false, null, hi", "true, '', hi", "false, md, ''", "true, md, data"})
    void requestsTheirsToOurs(boolean follows, String metadata, String data) {
        ByteBuf rr = RequestResponseFrameCodec.encode(ALLOC, 1, follows, theirs(metadata), theirs(data));
        ByteBuf fnf = RequestFireAndForgetFrameCodec.encode(ALLOC, 3, follows, theirs(metadata), theirs(data));
        ByteBuf stream = RequestStreamFrameCodec.encode(ALLOC, 5, follows, 2_000_000_000_000L, theirs(metadata),
                theirs(data));
        ByteBuf channel = RequestChannelFrameCodec.encode(ALLOC, 7, follows, true, 3, theirs(metadata),
                theirs(data));
        try {
            assertRequest(rr, FrameType.REQUEST_RESPONSE, 1, follows, metadata, data, 6);
            assertRequest(fnf, FrameType.REQUEST_FNF, 3, follows, metadata, data, 6);
            assertRequest(stream, FrameType.REQUEST_STREAM, 5, follows, metadata, data, 10);
            assertRequest(channel, FrameType.REQUEST_CHANNEL, 7, follows, metadata, data, 10);
            // Above 2^31-1 they clamp, as we do, and we read the clamped value as unbounded, as they do.
            assertThat(RequestStreamFrame.initialRequestN(stream, 0)).isEqualTo(Long.MAX_VALUE);
            assertThat(RequestChannelFrame.initialRequestN(channel, 0)).isEqualTo(3);
            assertThat(RequestChannelFrame.isComplete(channel, 0)).isTrue();
        } finally {
            rr.release();
            fnf.release();
            stream.release();
            channel.release();
        }
    }

    @Test
    void payloadRequestNCancelTheirsToOurs() {
        ByteBuf next = PayloadFrameCodec.encode(ALLOC, 9, true, false, true, Unpooled.wrappedBuffer(ascii("m")),
                Unpooled.wrappedBuffer(ascii("d")));
        ByteBuf complete = PayloadFrameCodec.encodeComplete(ALLOC, 9);
        ByteBuf n = RequestNFrameCodec.encode(ALLOC, 9, 64);
        ByteBuf cancel = CancelFrameCodec.encode(ALLOC, 9);
        try {
            int len = next.readableBytes();
            assertThat(FrameValidator.validate(next, 0, len)).isNull();
            assertThat(PayloadFrame.follows(next, 0)).isTrue();
            assertThat(PayloadFrame.isNext(next, 0)).isTrue();
            assertThat(PayloadFrame.isComplete(next, 0)).isFalse();
            assertThat(TestBuffers.bytes(next, PayloadFrame.metadataOffset(next, 0),
                    PayloadFrame.metadataLength(next, 0, len))).isEqualTo(ascii("m"));
            assertThat(TestBuffers.bytes(next, PayloadFrame.dataOffset(next, 0, len),
                    PayloadFrame.dataLength(next, 0, len))).isEqualTo(ascii("d"));

            assertThat(FrameValidator.validate(complete, 0, complete.readableBytes())).isNull();
            assertThat(PayloadFrame.isComplete(complete, 0)).isTrue();
            assertThat(PayloadFrame.isNext(complete, 0)).isFalse();
            assertThat(PayloadFrame.metadataLength(complete, 0, complete.readableBytes())).isEqualTo(-1);

            assertThat(FrameValidator.validate(n, 0, n.readableBytes())).isNull();
            assertThat(RequestNFrame.requestN(n, 0)).isEqualTo(64);

            assertThat(FrameValidator.validate(cancel, 0, cancel.readableBytes())).isNull();
            assertThat(FrameHeader.frameType(cancel, 0)).isEqualTo(FrameType.CANCEL);
            assertThat(FrameHeader.streamId(cancel, 0)).isEqualTo(9);
        } finally {
            next.release();
            complete.release();
            n.release();
            cancel.release();
        }
    }

    @Test
    void errorsTheirsToOurs() {
        ByteBuf rejected = ErrorFrameCodec.encode(ALLOC, 5, new RejectedException("lease_expired"));
        ByteBuf app = ErrorFrameCodec.encode(ALLOC, 7, new ApplicationErrorException("boom \u00e9"));
        ByteBuf close = ErrorFrameCodec.encode(ALLOC, 0, new ConnectionCloseException("bye"));
        try {
            assertError(rejected, 5, ErrorCodes.REJECTED, "lease_expired");
            assertError(app, 7, ErrorCodes.APPLICATION_ERROR, "boom \u00e9");
            assertError(close, 0, ErrorCodes.CONNECTION_CLOSE, "bye");
        } finally {
            rejected.release();
            app.release();
            close.release();
        }
    }

    @Test
    void resumeResumeOkExtTheirsToOurs() {
        ByteBuf token = bufs.utf8("resume-me");
        ByteBuf resume = ResumeFrameCodec.encode(ALLOC, token, 1234, 567);
        ByteBuf ok = ResumeOkFrameCodec.encode(ALLOC, 890);
        ByteBuf ext = ExtensionFrameCodec.encode(ALLOC, 3, 77, Unpooled.wrappedBuffer(ascii("em")),
                Unpooled.wrappedBuffer(ascii("ed")));
        try {
            assertThat(FrameValidator.validate(resume, 0, resume.readableBytes())).isNull();
            assertThat(ResumeFrame.majorVersion(resume, 0)).isEqualTo(1);
            assertThat(TestBuffers.bytes(resume, ResumeFrame.resumeTokenOffset(resume, 0),
                    ResumeFrame.resumeTokenLength(resume, 0))).isEqualTo(ascii("resume-me"));
            assertThat(ResumeFrame.lastReceivedServerPosition(resume, 0)).isEqualTo(1234);
            assertThat(ResumeFrame.firstAvailableClientPosition(resume, 0)).isEqualTo(567);

            assertThat(FrameValidator.validate(ok, 0, ok.readableBytes())).isNull();
            assertThat(ResumeOkFrame.lastReceivedClientPosition(ok, 0)).isEqualTo(890);

            int len = ext.readableBytes();
            assertThat(FrameValidator.validate(ext, 0, len)).isNull();
            assertThat(ExtFrame.ignorable(ext, 0)).isTrue();
            assertThat(ExtFrame.extendedType(ext, 0)).isEqualTo(77);
            assertThat(TestBuffers.bytes(ext, ExtFrame.metadataOffset(ext, 0), ExtFrame.metadataLength(ext, 0, len)))
                    .isEqualTo(ascii("em"));
            assertThat(TestBuffers.bytes(ext, ExtFrame.dataOffset(ext, 0, len), ExtFrame.dataLength(ext, 0, len)))
                    .isEqualTo(ascii("ed"));
        } finally {
            resume.release();
            ok.release();
            ext.release();
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    private ByteBuf md(String metadata) {
        return metadata == null ? null : bufs.utf8(metadata);
    }

    private ByteBuf dt(String data) {
        return data == null ? null : bufs.utf8(data);
    }

    /** A buffer for their encoders, which take ownership (and release it with the frame). */
    private static ByteBuf theirs(String s) {
        return s == null ? null : Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void assertMetadata(ByteBuf theirMetadata, String expected) {
        if (expected == null) {
            assertThat(theirMetadata).isNull();
        } else {
            assertThat(readable(theirMetadata)).isEqualTo(ascii(expected));
        }
    }

    private static void assertRequest(ByteBuf frame, int type, int streamId, boolean follows, String metadata,
            String data, int payloadStart) {
        int len = frame.readableBytes();
        assertThat(FrameValidator.validate(frame, 0, len)).isNull();
        assertThat(FrameHeader.frameType(frame, 0)).isEqualTo(type);
        assertThat(FrameHeader.streamId(frame, 0)).isEqualTo(streamId);
        assertThat(FrameHeader.hasFlag(frame, 0, FrameFlags.FOLLOWS)).isEqualTo(follows);
        int mdLength = PayloadSection.metadataLength(frame, 0, len, payloadStart);
        if (metadata == null) {
            assertThat(mdLength).isEqualTo(-1);
        } else {
            assertThat(TestBuffers.bytes(frame, PayloadSection.metadataOffset(frame, 0, payloadStart), mdLength))
                    .isEqualTo(ascii(metadata));
        }
        assertThat(TestBuffers.bytes(frame, PayloadSection.dataOffset(frame, 0, len, payloadStart),
                PayloadSection.dataLength(frame, 0, len, payloadStart)))
                .isEqualTo(data == null ? new byte[0] : ascii(data));
    }

    private static void assertError(ByteBuf frame, int streamId, int code, String message) {
        int len = frame.readableBytes();
        assertThat(FrameValidator.validate(frame, 0, len)).isNull();
        assertThat(FrameHeader.streamId(frame, 0)).isEqualTo(streamId);
        assertThat(ErrorFrame.errorCode(frame, 0)).isEqualTo(code);
        assertThat(ErrorFrame.message(frame, 0, len)).isEqualTo(message);
    }
}
