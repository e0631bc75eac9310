package dev.sluice.frame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.sluice.frame.metadata.CompositeMetadataCursor;
import dev.sluice.frame.metadata.MalformedMetadataException;
import dev.sluice.frame.metadata.RoutingMetadataCursor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A seeded mutation test: valid frames of every type are bit-flipped, truncated, extended and given wrong inner
 * lengths, then placed at an offset in a buffer that ends exactly with the frame (so any read past the frame
 * throws). It proves that {@link FrameValidator} never throws, and that every frame it accepts can be read by
 * every reader of its type without an exception, with all regions inside the frame.
 */
class FrameValidatorFuzzTest {

    /** Fixed, so a failure reproduces; change it locally to explore further. */
    private static final long SEED = 0x5EED_F00DL;
    private static final int MUTANTS = 20_000;

    private final TestBuffers bufs = new TestBuffers();
    private final CompositeMetadataCursor composite = new CompositeMetadataCursor();
    private final RoutingMetadataCursor routing = new RoutingMetadataCursor();

    @AfterEach
    void release() {
        bufs.releaseAll();
    }

    @Test
    void validatorNeverThrowsAndEveryAcceptedFrameIsReadable() {
        List<byte[]> corpus = corpus();
        for (byte[] seed : corpus) {
            ByteBuf buf = Unpooled.wrappedBuffer(seed);
            assertThat(FrameValidator.validate(buf, 0, seed.length)).as(ByteBufUtil.hexDump(seed)).isNull();
            readAll(buf, 0, seed.length);
        }

        Random random = new Random(SEED);
        int accepted = 0;
        int rejected = 0;
        Set<Integer> acceptedTypes = new TreeSet<>();
        for (int i = 0; i < MUTANTS; i++) {
            byte[] frame = mutate(corpus.get(random.nextInt(corpus.size())), random);
            int off = random.nextInt(4);
            byte[] placed = new byte[off + frame.length];
            random.nextBytes(placed);
            System.arraycopy(frame, 0, placed, off, frame.length);
            ByteBuf buf = Unpooled.wrappedBuffer(placed);

            String verdict;
            try {
                verdict = FrameValidator.validate(buf, off, frame.length);
            } catch (RuntimeException e) {
                throw new AssertionError("validator threw on mutant " + i + ": " + ByteBufUtil.hexDump(frame), e);
            }
            if (verdict == null) {
                accepted++;
                acceptedTypes.add(FrameHeader.frameType(buf, off));
                try {
                    readAll(buf, off, frame.length);
                } catch (RuntimeException | AssertionError e) {
                    throw new AssertionError("accepted but unreadable, mutant " + i + ": "
                            + ByteBufUtil.hexDump(frame), e);
                }
            } else {
                rejected++;
            }
            assertThat(FrameDump.toString(buf, off, frame.length)).isNotEmpty();
        }

        // Recorded in the surefire output file, for the curious.
        System.out.println("mutants=" + MUTANTS + " accepted=" + accepted + " rejected=" + rejected);
        // Both paths must be well exercised for the property to mean anything.
        assertThat(accepted + rejected).isEqualTo(MUTANTS);
        assertThat(accepted).isGreaterThan(MUTANTS / 10);
        assertThat(rejected).isGreaterThan(MUTANTS / 10);
        assertThat(acceptedTypes).containsExactly(0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B,
                0x0C, 0x0D, 0x0E, 0x3F);
    }

    /** Valid frames of every type, in several shapes. */
    private List<byte[]> corpus() {
        List<byte[]> frames = new ArrayList<>();
        ByteBuf md = bufs.utf8("meta");
        ByteBuf data = bufs.utf8("some data bytes");
        ByteBuf empty = bufs.buffer();
        ByteBuf composite = bufs.buffer();
        dev.sluice.frame.metadata.CompositeMetadata.addRoutingEntry(composite, List.of("svc.method", "v2"));
        dev.sluice.frame.metadata.CompositeMetadata.addEntry(composite, "application/x-custom", md);
        ByteBuf out = bufs.buffer();
        int start = 0;
        SetupFrame.encode(out, true, 500, 90_000, null, "message/x.rsocket.composite-metadata.v0", "text/plain",
                composite, data);
        start = cut(frames, out, start);
        SetupFrame.encode(out, false, 1, 1, bufs.utf8("token"), "a", "", null, null);
        start = cut(frames, out, start);
        SetupFrame.encode(out, false, 1, 1, empty, "", "b", empty, empty);
        start = cut(frames, out, start);
        LeaseFrame.encode(out, 1000, 200, md);
        start = cut(frames, out, start);
        LeaseFrame.encode(out, 0, 0, null);
        start = cut(frames, out, start);
        KeepAliveFrame.encode(out, true, 5, data);
        start = cut(frames, out, start);
        RequestResponseFrame.encode(out, 1, false, composite, data);
        start = cut(frames, out, start);
        RequestResponseFrame.encode(out, 1, true, null, data);
        start = cut(frames, out, start);
        RequestFnfFrame.encode(out, 3, false, empty, null);
        start = cut(frames, out, start);
        RequestStreamFrame.encode(out, 5, false, Long.MAX_VALUE, composite, data);
        start = cut(frames, out, start);
        RequestStreamFrame.encode(out, 5, true, 1, null, null);
        start = cut(frames, out, start);
        RequestChannelFrame.encode(out, 7, false, true, 3, md, data);
        start = cut(frames, out, start);
        RequestNFrame.encode(out, 7, 64);
        start = cut(frames, out, start);
        CancelFrame.encode(out, 7);
        start = cut(frames, out, start);
        PayloadFrame.encode(out, 9, false, true, true, md, data);
        start = cut(frames, out, start);
        PayloadFrame.encode(out, 9, true, false, true, null, data);
        start = cut(frames, out, start);
        PayloadFrame.encode(out, 9, false, true, false, null, null);
        start = cut(frames, out, start);
        ErrorFrame.encode(out, 9, ErrorCodes.REJECTED, "lease_exhausted");
        start = cut(frames, out, start);
        ErrorFrame.encode(out, 0, ErrorCodes.CONNECTION_ERROR, "");
        start = cut(frames, out, start);
        MetadataPushFrame.encode(out, composite);
        start = cut(frames, out, start);
        ResumeFrame.encode(out, bufs.utf8("resume-token"), 10, 20);
        start = cut(frames, out, start);
        ResumeOkFrame.encode(out, 30);
        start = cut(frames, out, start);
        ExtFrame.encode(out, 11, true, 42, md, data);
        cut(frames, out, start);
        return frames;
    }

    private static int cut(List<byte[]> frames, ByteBuf out, int start) {
        frames.add(ByteBufUtil.getBytes(out, start, out.writerIndex() - start));
        return out.writerIndex();
    }

    /** One to three random edits of the kinds that break parsers. */
    private static byte[] mutate(byte[] seed, Random r) {
        byte[] f = seed.clone();
        int edits = 1 + r.nextInt(3);
        for (int e = 0; e < edits; e++) {
            int at = f.length == 0 ? 0 : r.nextInt(f.length);
            switch (r.nextInt(10)) {
                case 0: // flip one bit
                    if (f.length > 0) {
                        f[at] ^= (byte) (1 << r.nextInt(8));
                    }
                    break;
                case 1: // random byte
                    if (f.length > 0) {
                        f[at] = (byte) r.nextInt(256);
                    }
                    break;
                case 2: // truncate
                    f = java.util.Arrays.copyOf(f, f.length == 0 ? 0 : r.nextInt(f.length));
                    break;
                case 3: { // extend with junk
                    byte[] g = java.util.Arrays.copyOf(f, f.length + 1 + r.nextInt(16));
                    for (int i = f.length; i < g.length; i++) {
                        g[i] = (byte) r.nextInt(256);
                    }
                    f = g;
                    break;
                }
                case 4: { // drop one byte from the middle
                    if (f.length > 0) {
                        byte[] g = new byte[f.length - 1];
                        System.arraycopy(f, 0, g, 0, at);
                        System.arraycopy(f, at + 1, g, at, f.length - at - 1);
                        f = g;
                    }
                    break;
                }
                case 5: // a plausible wrong u24 length somewhere after the header
                    writeBe(f, 6 + r.nextInt(Math.max(1, f.length)), 3, r.nextInt(f.length + 8));
                    break;
                case 6: // another known type, same flags
                    if (f.length > 4) {
                        int[] types = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0x3F};
                        f[4] = (byte) ((types[r.nextInt(types.length)] << 2) | (f[4] & 0x03));
                    }
                    break;
                case 7: // random flags
                    if (f.length > 5) {
                        f[4] = (byte) ((f[4] & 0xFC) | r.nextInt(4));
                        f[5] = (byte) r.nextInt(256);
                    }
                    break;
                case 8: // a plausible wrong u8 length (MIME type, tag)
                    writeBe(f, at, 1, r.nextInt(f.length + 4));
                    break;
                default: // a plausible wrong u16 length (token) or stream id change
                    writeBe(f, at, 2, r.nextInt(f.length + 4));
                    break;
            }
        }
        return f;
    }

    private static void writeBe(byte[] f, int at, int width, int value) {
        for (int i = 0; i < width && at + i < f.length; i++) {
            f[at + i] = (byte) (value >>> (8 * (width - 1 - i)));
        }
    }

    /** Calls every reader of the frame's type and checks that what they describe lies inside the frame. */
    private void readAll(ByteBuf buf, int off, int len) {
        int end = off + len;
        int type = FrameHeader.frameType(buf, off);
        assertThat(FrameHeader.streamId(buf, off)).isNotNegative();
        assertThat(FrameHeader.flags(buf, off)).isBetween(0, FrameFlags.MASK);
        switch (type) {
            case FrameType.SETUP: {
                assertThat(SetupFrame.majorVersion(buf, off)).isBetween(0, 0xFFFF);
                assertThat(SetupFrame.minorVersion(buf, off)).isBetween(0, 0xFFFF);
                assertThat(SetupFrame.keepAliveIntervalMillis(buf, off)).isPositive();
                assertThat(SetupFrame.maxLifetimeMillis(buf, off)).isPositive();
                SetupFrame.leaseEnabled(buf, off);
                if (SetupFrame.resumeEnabled(buf, off)) {
                    inside(buf, SetupFrame.resumeTokenOffset(buf, off), SetupFrame.resumeTokenLength(buf, off), end);
                } else {
                    assertThat(SetupFrame.resumeTokenLength(buf, off)).isEqualTo(-1);
                }
                inside(buf, SetupFrame.metadataMimeTypeOffset(buf, off), SetupFrame.metadataMimeTypeLength(buf, off),
                        end);
                inside(buf, SetupFrame.dataMimeTypeOffset(buf, off), SetupFrame.dataMimeTypeLength(buf, off), end);
                assertThat(SetupFrame.metadataMimeType(buf, off)).isNotNull();
                assertThat(SetupFrame.dataMimeType(buf, off)).isNotNull();
                int start = SetupFrame.payloadStart(buf, off);
                section(buf, off, len, start, SetupFrame.metadataLength(buf, off, len),
                        SetupFrame.metadataOffset(buf, off), SetupFrame.dataOffset(buf, off, len),
                        SetupFrame.dataLength(buf, off, len));
                break;
            }
            case FrameType.LEASE:
                assertThat(LeaseFrame.ttlMillis(buf, off)).isNotNegative();
                assertThat(LeaseFrame.numberOfRequests(buf, off)).isNotNegative();
                if (LeaseFrame.metadataLength(buf, off, len) >= 0) {
                    inside(buf, LeaseFrame.metadataOffset(buf, off), LeaseFrame.metadataLength(buf, off, len), end);
                    assertThat(LeaseFrame.metadataOffset(buf, off) + LeaseFrame.metadataLength(buf, off, len))
                            .isEqualTo(end);
                }
                break;
            case FrameType.KEEPALIVE:
                KeepAliveFrame.respond(buf, off);
                assertThat(KeepAliveFrame.lastReceivedPosition(buf, off)).isNotNegative();
                inside(buf, KeepAliveFrame.dataOffset(buf, off), KeepAliveFrame.dataLength(buf, off, len), end);
                break;
            case FrameType.REQUEST_RESPONSE:
                RequestResponseFrame.follows(buf, off);
                section(buf, off, len, 6, RequestResponseFrame.metadataLength(buf, off, len),
                        RequestResponseFrame.metadataOffset(buf, off), RequestResponseFrame.dataOffset(buf, off, len),
                        RequestResponseFrame.dataLength(buf, off, len));
                break;
            case FrameType.REQUEST_FNF:
                RequestFnfFrame.follows(buf, off);
                section(buf, off, len, 6, RequestFnfFrame.metadataLength(buf, off, len),
                        RequestFnfFrame.metadataOffset(buf, off), RequestFnfFrame.dataOffset(buf, off, len),
                        RequestFnfFrame.dataLength(buf, off, len));
                break;
            case FrameType.REQUEST_STREAM:
                RequestStreamFrame.follows(buf, off);
                assertThat(RequestStreamFrame.initialRequestN(buf, off)).isPositive();
                section(buf, off, len, 10, RequestStreamFrame.metadataLength(buf, off, len),
                        RequestStreamFrame.metadataOffset(buf, off), RequestStreamFrame.dataOffset(buf, off, len),
                        RequestStreamFrame.dataLength(buf, off, len));
                break;
            case FrameType.REQUEST_CHANNEL:
                RequestChannelFrame.follows(buf, off);
                RequestChannelFrame.isComplete(buf, off);
                assertThat(RequestChannelFrame.initialRequestN(buf, off)).isPositive();
                section(buf, off, len, 10, RequestChannelFrame.metadataLength(buf, off, len),
                        RequestChannelFrame.metadataOffset(buf, off), RequestChannelFrame.dataOffset(buf, off, len),
                        RequestChannelFrame.dataLength(buf, off, len));
                break;
            case FrameType.REQUEST_N:
                assertThat(RequestNFrame.requestN(buf, off)).isPositive();
                break;
            case FrameType.CANCEL:
                break;
            case FrameType.PAYLOAD:
                assertThat(PayloadFrame.isNext(buf, off) || PayloadFrame.isComplete(buf, off)).isTrue();
                PayloadFrame.follows(buf, off);
                section(buf, off, len, 6, PayloadFrame.metadataLength(buf, off, len),
                        PayloadFrame.metadataOffset(buf, off), PayloadFrame.dataOffset(buf, off, len),
                        PayloadFrame.dataLength(buf, off, len));
                break;
            case FrameType.ERROR:
                assertThat(ErrorFrame.errorCode(buf, off)).isNotZero();
                inside(buf, ErrorFrame.messageOffset(buf, off), ErrorFrame.messageLength(buf, off, len), end);
                assertThat(ErrorFrame.message(buf, off, len)).isNotNull();
                break;
            case FrameType.METADATA_PUSH:
                inside(buf, MetadataPushFrame.metadataOffset(buf, off), MetadataPushFrame.metadataLength(buf, off, len),
                        end);
                metadataFormats(buf, MetadataPushFrame.metadataOffset(buf, off),
                        MetadataPushFrame.metadataLength(buf, off, len));
                break;
            case FrameType.RESUME:
                assertThat(ResumeFrame.majorVersion(buf, off)).isBetween(0, 0xFFFF);
                ResumeFrame.minorVersion(buf, off);
                inside(buf, ResumeFrame.resumeTokenOffset(buf, off), ResumeFrame.resumeTokenLength(buf, off), end);
                assertThat(ResumeFrame.lastReceivedServerPosition(buf, off)).isNotNegative();
                assertThat(ResumeFrame.firstAvailableClientPosition(buf, off)).isNotNegative();
                break;
            case FrameType.RESUME_OK:
                assertThat(ResumeOkFrame.lastReceivedClientPosition(buf, off)).isNotNegative();
                break;
            case FrameType.EXT:
                ExtFrame.ignorable(buf, off);
                assertThat(ExtFrame.extendedType(buf, off)).isPositive();
                section(buf, off, len, 10, ExtFrame.metadataLength(buf, off, len), ExtFrame.metadataOffset(buf, off),
                        ExtFrame.dataOffset(buf, off, len), ExtFrame.dataLength(buf, off, len));
                break;
            default:
                fail("validator accepted unknown type " + type);
        }
    }

    /** The payload section invariants, checked against what PayloadSection itself reports. */
    private void section(ByteBuf buf, int off, int len, int payloadStart, int mdLength, int mdOffset, int dataOffset,
            int dataLength) {
        assertThat(mdLength).isEqualTo(PayloadSection.metadataLength(buf, off, len, payloadStart));
        assertThat(dataLength).isEqualTo(PayloadSection.dataLength(buf, off, len, payloadStart)).isNotNegative();
        assertThat(dataOffset + dataLength).isEqualTo(off + len);
        if (mdLength < 0) {
            assertThat(FrameHeader.hasFlag(buf, off, FrameFlags.METADATA)).isFalse();
            assertThat(dataOffset).isEqualTo(off + payloadStart);
        } else {
            assertThat(mdOffset).isEqualTo(off + payloadStart + 3);
            assertThat(mdOffset + mdLength).isEqualTo(dataOffset);
            inside(buf, mdOffset, mdLength, off + len);
            metadataFormats(buf, mdOffset, mdLength);
        }
        inside(buf, dataOffset, dataLength, off + len);
    }

    /** Metadata readers on whatever bytes the frame carries: they may only fail with their own exception. */
    private void metadataFormats(ByteBuf buf, int index, int length) {
        try {
            composite.wrap(buf, index, length);
            while (composite.next()) {
                composite.mimeType();
                inside(buf, composite.contentIndex(), composite.contentLength(), index + length);
            }
        } catch (MalformedMetadataException expected) {
            assertThat(expected).hasMessageStartingWith("composite metadata entry at index ");
        }
        try {
            routing.wrap(buf, index, length);
            while (routing.next()) {
                routing.tag();
                inside(buf, routing.tagIndex(), routing.tagLength(), index + length);
            }
        } catch (MalformedMetadataException expected) {
            assertThat(expected).hasMessageStartingWith("routing tag at index ");
        }
    }

    private static void inside(ByteBuf buf, int index, int length, int end) {
        assertThat(length).isNotNegative();
        assertThat(index + length).isLessThanOrEqualTo(end);
        ByteBufUtil.getBytes(buf, index, length); // throws if outside the buffer
    }
}
