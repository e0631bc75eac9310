/**
 * The RSocket wire format: one small final class per frame type (its layout diagram in the Javadoc, static methods
 * only), plus the shared {@link dev.sluice.frame.FrameHeader}, {@link dev.sluice.frame.PayloadSection},
 * {@link dev.sluice.frame.FrameValidator} and {@link dev.sluice.frame.FrameDump}; and
 * {@link dev.sluice.frame.FrameReader}, which validates a received frame and calls one method of its
 * {@code Handler} per frame type with the fields decoded; {@link dev.sluice.frame.Fragmenter}, which splits an
 * outbound payload into fragments for a {@link dev.sluice.frame.FrameSink}, and
 * {@link dev.sluice.frame.FragmentAssembler}, which joins received fragments back.
 *
 * <h2>Conventions</h2>
 * <ul>
 *   <li><b>Addressing.</b> A frame is {@code (ByteBuf buf, int off, int len)}: it starts at absolute index
 *       {@code off} and is {@code len} bytes long, without the TCP transport's 3-byte length prefix (the transport
 *       strips and writes that).</li>
 *   <li><b>Readers</b> use absolute gets, never move the buffer's indexes and allocate nothing (methods returning a
 *       {@code String} are the exception, for setup and error paths). They trust the frame: run
 *       {@link dev.sluice.frame.FrameValidator#validate} on untrusted input first; a frame it accepts can be read
 *       by every reader of its type without an exception.</li>
 *   <li><b>Encoders</b> append one whole frame at {@code out.writerIndex()} and advance it, returning the frame
 *       length. Every argument is checked before the first byte is written, so a refused frame leaves {@code out}
 *       as it was. Buffer arguments are borrowed: read from their reader index for their readable bytes, never
 *       moved or released. {@code null} metadata means no metadata (M clear); an empty buffer means empty metadata
 *       (M set, length 0). {@code null} data means empty data.</li>
 *   <li><b>Fragments.</b> The payload-bearing request frames and PAYLOAD also take {@code (src, index, length)}
 *       ranges (metadata length -1 for none), so {@link dev.sluice.frame.Fragmenter} emits part of a payload
 *       without slices.</li>
 *   <li><b>Lengths.</b> Each encoder has {@code encodedLength} companions that return the exact byte count and
 *       never throw (they saturate at {@link java.lang.Integer#MAX_VALUE}); the encoders refuse frames longer than
 *       {@link dev.sluice.frame.FrameHeader#MAX_FRAME_LENGTH}.</li>
 *   <li><b>Demand</b> is a {@code long}: encoders write values &ge; 2^31-1 as 2^31-1 and refuse values &lt; 1;
 *       readers return {@link java.lang.Long#MAX_VALUE} (unbounded) for the wire's 2^31-1, as rsocket-java does.
 *       u31 fields and u63 positions have their reserved top bit masked on read. {@link dev.sluice.frame.Demand}
 *       holds that mapping and the saturating arithmetic the engine counts credits with.</li>
 * </ul>
 *
 * <p>Everything here is stateless and thread-safe, as long as nobody writes the bytes being read.
 */
package dev.sluice.frame;
