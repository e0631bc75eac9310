package dev.sluice.frame;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FrameReader.Handler} that writes each call down as one line of text: the method, its primitives (flags
 * in hex), and the bytes of each view decoded as UTF-8 in quotes, or {@code absent} for a metadata length of -1.
 * Views are read at their absolute offsets, so an offset relative to the frame instead of the buffer shows up as
 * the wrong bytes.
 */
final class RecordingHandler implements FrameReader.Handler {

    final List<String> calls = new ArrayList<>();

    @Override
    public void setup(ByteBuf buf, int off, int len) {
        calls.add("setup(version=" + SetupFrame.majorVersion(buf, off) + "." + SetupFrame.minorVersion(buf, off)
                + ", keepAlive=" + SetupFrame.keepAliveIntervalMillis(buf, off)
                + ", lifetime=" + SetupFrame.maxLifetimeMillis(buf, off)
                + ", lease=" + SetupFrame.leaseEnabled(buf, off)
                + ", mime=" + SetupFrame.metadataMimeType(buf, off) + "|" + SetupFrame.dataMimeType(buf, off)
                + ", md=" + view(buf, SetupFrame.metadataOffset(buf, off), SetupFrame.metadataLength(buf, off, len))
                + ", data=" + view(buf, SetupFrame.dataOffset(buf, off, len), SetupFrame.dataLength(buf, off, len))
                + ")");
    }

    @Override
    public void resume(ByteBuf buf, int off, int len) {
        calls.add("resume(token=" + view(buf, ResumeFrame.resumeTokenOffset(buf, off),
                ResumeFrame.resumeTokenLength(buf, off))
                + ", server=" + ResumeFrame.lastReceivedServerPosition(buf, off)
                + ", client=" + ResumeFrame.firstAvailableClientPosition(buf, off) + ", len=" + len + ")");
    }

    @Override
    public void resumeOk(ByteBuf buf, int off, int len) {
        calls.add("resumeOk(position=" + ResumeOkFrame.lastReceivedClientPosition(buf, off) + ", len=" + len + ")");
    }

    @Override
    public void lease(long ttlMillis, int numberOfRequests, ByteBuf buf, int metadataOffset, int metadataLength) {
        calls.add("lease(ttl=" + ttlMillis + ", n=" + numberOfRequests + ", md=" + view(buf, metadataOffset,
                metadataLength) + ")");
    }

    @Override
    public void keepAlive(boolean respond, long lastReceivedPosition, ByteBuf buf, int dataOffset, int dataLength) {
        calls.add("keepAlive(respond=" + respond + ", position=" + lastReceivedPosition + ", data="
                + view(buf, dataOffset, dataLength) + ")");
    }

    @Override
    public void requestResponse(int streamId, int flags, ByteBuf buf, int metadataOffset, int metadataLength,
            int dataOffset, int dataLength) {
        calls.add("requestResponse(" + streamId + ", " + hex(flags) + payload(buf, metadataOffset, metadataLength,
                dataOffset, dataLength));
    }

    @Override
    public void requestFireAndForget(int streamId, int flags, ByteBuf buf, int metadataOffset, int metadataLength,
            int dataOffset, int dataLength) {
        calls.add("requestFireAndForget(" + streamId + ", " + hex(flags) + payload(buf, metadataOffset,
                metadataLength, dataOffset, dataLength));
    }

    @Override
    public void requestStream(int streamId, int flags, long initialRequestN, ByteBuf buf, int metadataOffset,
            int metadataLength, int dataOffset, int dataLength) {
        calls.add("requestStream(" + streamId + ", " + hex(flags) + ", n=" + initialRequestN
                + payload(buf, metadataOffset, metadataLength, dataOffset, dataLength));
    }

    @Override
    public void requestChannel(int streamId, int flags, long initialRequestN, ByteBuf buf, int metadataOffset,
            int metadataLength, int dataOffset, int dataLength) {
        calls.add("requestChannel(" + streamId + ", " + hex(flags) + ", n=" + initialRequestN
                + payload(buf, metadataOffset, metadataLength, dataOffset, dataLength));
    }

    @Override
    public void payload(int streamId, int flags, ByteBuf buf, int metadataOffset, int metadataLength,
            int dataOffset, int dataLength) {
        calls.add("payload(" + streamId + ", " + hex(flags) + payload(buf, metadataOffset, metadataLength,
                dataOffset, dataLength));
    }

    @Override
    public void requestN(int streamId, long n) {
        calls.add("requestN(" + streamId + ", " + n + ")");
    }

    @Override
    public void cancel(int streamId) {
        calls.add("cancel(" + streamId + ")");
    }

    @Override
    public void error(int streamId, int errorCode, ByteBuf buf, int messageOffset, int messageLength) {
        calls.add("error(" + streamId + ", " + ErrorCodes.name(errorCode) + ", " + view(buf, messageOffset,
                messageLength) + ")");
    }

    @Override
    public void metadataPush(int streamId, ByteBuf buf, int metadataOffset, int metadataLength) {
        calls.add("metadataPush(" + streamId + ", md=" + view(buf, metadataOffset, metadataLength) + ")");
    }

    @Override
    public void ext(int streamId, int flags, int extendedType, ByteBuf buf, int metadataOffset, int metadataLength,
            int dataOffset, int dataLength) {
        calls.add("ext(" + streamId + ", " + hex(flags) + ", type=" + extendedType + payload(buf, metadataOffset,
                metadataLength, dataOffset, dataLength));
    }

    @Override
    public void malformed(String problem) {
        calls.add("malformed(" + problem + ")");
    }

    private static String payload(ByteBuf buf, int metadataOffset, int metadataLength, int dataOffset,
            int dataLength) {
        return ", md=" + view(buf, metadataOffset, metadataLength) + ", data=" + view(buf, dataOffset, dataLength)
                + ")";
    }

    private static String view(ByteBuf buf, int offset, int length) {
        return length == -1 ? "absent" : "'" + buf.toString(offset, length, StandardCharsets.UTF_8) + "'";
    }

    private static String hex(int flags) {
        return "0x" + String.format("%03x", flags);
    }
}
