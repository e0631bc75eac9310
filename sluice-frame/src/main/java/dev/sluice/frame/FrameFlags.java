package dev.sluice.frame;

/**
 * The flag bits of the frame header: the low 10 bits of the 16-bit type-and-flags field.
 *
 * <pre>
 *  15      10 9 8 7 6 5 4         0
 * +----------+-+-+-+-+-+-----------+
 * |Frame Type|I|M|F|C|N| (unused)  |
 * +----------+-+-+-+-+-+-----------+
 * </pre>
 *
 * <p>Bits 0x080 and 0x040 mean different things by frame type, hence the aliases: on SETUP they are
 * {@link #RESUME_ENABLE} and {@link #LEASE}, on KEEPALIVE 0x080 is {@link #RESPOND}. A bit a frame type does not
 * define is written as 0 and not interpreted on reception.
 *
 * <p>Constants only; thread-safe.
 */
public final class FrameFlags {

    /** (I)gnore: the receiver may ignore the frame if it does not understand it. */
    public static final int IGNORE = 0x200;
    /** (M)etadata present. */
    public static final int METADATA = 0x100;
    /** (F)ollows: more fragments of this payload follow (PAYLOAD and the four REQUEST_* types). */
    public static final int FOLLOWS = 0x080;
    /** (C)omplete: the stream completes with this frame (PAYLOAD, REQUEST_CHANNEL). */
    public static final int COMPLETE = 0x040;
    /** (N)ext: the frame carries an onNext payload, possibly empty (PAYLOAD). */
    public static final int NEXT = 0x020;

    /** SETUP (R)esume enable: a resume token follows the lifetime fields. Same bit as {@link #FOLLOWS}. */
    public static final int RESUME_ENABLE = 0x080;
    /** SETUP (L)ease: the client will honor LEASE frames. Same bit as {@link #COMPLETE}. */
    public static final int LEASE = 0x040;
    /** KEEPALIVE (R)espond: the receiver must answer with a KEEPALIVE without R. Same bit as {@link #FOLLOWS}. */
    public static final int RESPOND = 0x080;

    /** All 10 flag bits. */
    public static final int MASK = 0x3FF;

    private FrameFlags() {
    }
}
