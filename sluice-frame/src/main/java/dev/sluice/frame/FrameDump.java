package dev.sluice.frame;

import io.netty.buffer.ByteBuf;

/**
 * One-line descriptions of frames for logs and debugging, e.g.
 * {@code "PAYLOAD stream=5 flags=N|C metadata=3 data=12"}.
 *
 * <p>Safe on any input: a malformed frame is described with its header (when there is one) and the
 * {@link FrameValidator} message. Allocates; not for the hot path. Stateless; thread-safe.
 */
public final class FrameDump {

    /** Error messages longer than this are cut, so one bad peer cannot flood a log line. */
    static final int MAX_MESSAGE_CHARS = 120;

    private FrameDump() {
    }

    /** Describes the frame at {@code [off, off + len)} on one line. */
    public static String toString(ByteBuf buf, int off, int len) {
        String invalid = FrameValidator.validate(buf, off, len);
        if (invalid != null) {
            if (len >= FrameHeader.SIZE && buf != null && off >= 0 && off <= buf.writerIndex() - len) {
                return header(new StringBuilder(96), buf, off).append(" length=").append(len)
                        .append(" invalid: ").append(invalid).toString();
            }
            return "invalid frame: " + invalid;
        }
        StringBuilder sb = header(new StringBuilder(96), buf, off);
        int type = FrameHeader.frameType(buf, off);
        switch (type) {
            case FrameType.SETUP:
                sb.append(" version=").append(SetupFrame.majorVersion(buf, off)).append('.')
                        .append(SetupFrame.minorVersion(buf, off))
                        .append(" keepAlive=").append(SetupFrame.keepAliveIntervalMillis(buf, off))
                        .append(" lifetime=").append(SetupFrame.maxLifetimeMillis(buf, off));
                if (SetupFrame.resumeEnabled(buf, off)) {
                    sb.append(" token=").append(SetupFrame.resumeTokenLength(buf, off));
                }
                sb.append(" metadataMime=").append(printable(SetupFrame.metadataMimeType(buf, off)))
                        .append(" dataMime=").append(printable(SetupFrame.dataMimeType(buf, off)));
                payload(sb, buf, off, len, SetupFrame.payloadStart(buf, off));
                break;
            case FrameType.LEASE:
                sb.append(" ttl=").append(LeaseFrame.ttlMillis(buf, off))
                        .append(" requests=").append(LeaseFrame.numberOfRequests(buf, off));
                if (LeaseFrame.metadataLength(buf, off, len) >= 0) {
                    sb.append(" metadata=").append(LeaseFrame.metadataLength(buf, off, len));
                }
                break;
            case FrameType.KEEPALIVE:
                sb.append(" position=").append(KeepAliveFrame.lastReceivedPosition(buf, off))
                        .append(" data=").append(KeepAliveFrame.dataLength(buf, off, len));
                break;
            case FrameType.REQUEST_STREAM:
            case FrameType.REQUEST_CHANNEL:
                demand(sb, RequestStreamFrame.initialRequestN(buf, off));
                payload(sb, buf, off, len, RequestStreamFrame.PAYLOAD_START);
                break;
            case FrameType.REQUEST_N:
                demand(sb, RequestNFrame.requestN(buf, off));
                break;
            case FrameType.ERROR:
                sb.append(" code=").append(ErrorCodes.name(ErrorFrame.errorCode(buf, off)))
                        .append(" message=\"").append(message(buf, off, len)).append('"');
                break;
            case FrameType.METADATA_PUSH:
                sb.append(" metadata=").append(MetadataPushFrame.metadataLength(buf, off, len));
                break;
            case FrameType.RESUME:
                sb.append(" version=").append(ResumeFrame.majorVersion(buf, off)).append('.')
                        .append(ResumeFrame.minorVersion(buf, off))
                        .append(" token=").append(ResumeFrame.resumeTokenLength(buf, off))
                        .append(" lastReceivedServer=").append(ResumeFrame.lastReceivedServerPosition(buf, off))
                        .append(" firstAvailableClient=").append(ResumeFrame.firstAvailableClientPosition(buf, off));
                break;
            case FrameType.RESUME_OK:
                sb.append(" lastReceivedClient=").append(ResumeOkFrame.lastReceivedClientPosition(buf, off));
                break;
            case FrameType.EXT:
                sb.append(" extendedType=").append(ExtFrame.extendedType(buf, off));
                payload(sb, buf, off, len, ExtFrame.PAYLOAD_START);
                break;
            case FrameType.REQUEST_RESPONSE:
            case FrameType.REQUEST_FNF:
            case FrameType.PAYLOAD:
                payload(sb, buf, off, len, FrameHeader.SIZE);
                break;
            default:
                // CANCEL: the header says it all.
                break;
        }
        return sb.toString();
    }

    /** Flag names for {@code type}: the shared bits by their generic letters, type-specific aliases by theirs. */
    static String flagNames(int type, int flags) {
        StringBuilder sb = new StringBuilder();
        int rest = flags;
        rest = flag(sb, rest, FrameFlags.IGNORE, "I");
        rest = flag(sb, rest, FrameFlags.METADATA, "M");
        if (type == FrameType.SETUP) {
            rest = flag(sb, rest, FrameFlags.RESUME_ENABLE, "R");
            rest = flag(sb, rest, FrameFlags.LEASE, "L");
        } else if (type == FrameType.KEEPALIVE) {
            rest = flag(sb, rest, FrameFlags.RESPOND, "R");
        } else {
            rest = flag(sb, rest, FrameFlags.FOLLOWS, "F");
            rest = flag(sb, rest, FrameFlags.NEXT, "N");
            rest = flag(sb, rest, FrameFlags.COMPLETE, "C");
        }
        if (rest != 0) {
            sb.append(sb.length() == 0 ? "" : "|").append("0x").append(Integer.toHexString(rest));
        }
        return sb.toString();
    }

    private static int flag(StringBuilder sb, int flags, int bit, String name) {
        if ((flags & bit) != 0) {
            if (sb.length() > 0) {
                sb.append('|');
            }
            sb.append(name);
        }
        return flags & ~bit;
    }

    private static StringBuilder header(StringBuilder sb, ByteBuf buf, int off) {
        int type = FrameHeader.frameType(buf, off);
        int flags = FrameHeader.flags(buf, off);
        sb.append(FrameType.name(type)).append(" stream=").append(FrameHeader.streamId(buf, off));
        if (flags != 0) {
            sb.append(" flags=").append(flagNames(type, flags));
        }
        return sb;
    }

    private static void payload(StringBuilder sb, ByteBuf buf, int off, int len, int payloadStart) {
        int metadata = PayloadSection.metadataLength(buf, off, len, payloadStart);
        if (metadata >= 0) {
            sb.append(" metadata=").append(metadata);
        }
        sb.append(" data=").append(PayloadSection.dataLength(buf, off, len, payloadStart));
    }

    private static void demand(StringBuilder sb, long n) {
        sb.append(" n=");
        if (n == Long.MAX_VALUE) {
            sb.append("unbounded");
        } else {
            sb.append(n);
        }
    }

    private static String message(ByteBuf buf, int off, int len) {
        return printable(ErrorFrame.message(buf, off, len));
    }

    /** {@code s} cut to {@link #MAX_MESSAGE_CHARS}, with control chars and quotes made harmless for one line. */
    private static String printable(String s) {
        String m = s.length() > MAX_MESSAGE_CHARS ? s.substring(0, MAX_MESSAGE_CHARS) + "..." : s;
        StringBuilder sb = new StringBuilder(m.length());
        for (int i = 0; i < m.length(); i++) {
            char c = m.charAt(i);
            // Keep the description on one line and its quotes balanced.
            sb.append(c < 0x20 || c == 0x7F ? '?' : c == '"' ? '\'' : c);
        }
        return sb.toString();
    }
}
