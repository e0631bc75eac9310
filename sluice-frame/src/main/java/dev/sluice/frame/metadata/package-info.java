/**
 * Metadata formats carried inside frames: composite metadata (several typed entries in one metadata section), its
 * well-known MIME type registry, routing metadata (the tags Spring's {@code @MessageMapping} routes by), and
 * authentication metadata (simple, bearer or custom credentials, with its well-known auth type registry).
 *
 * <p>Encoders are static, append at {@code out.writerIndex()}, borrow their inputs and check everything before
 * writing. Readers are reusable cursors over {@code (buf, index, length)} that allocate nothing (except the
 * methods returning Strings) and report malformed bytes with a
 * {@link dev.sluice.frame.metadata.MalformedMetadataException} that quotes the position and values, never with an
 * {@link java.lang.IndexOutOfBoundsException}.
 *
 * <p>Interop notes (rsocket-java 1.1.5): a custom MIME type's length is written minus one; ids 0x29 and 0x2A are
 * unknown to it, so {@link dev.sluice.frame.metadata.CompositeMetadata#addEntry(io.netty.buffer.ByteBuf, String,
 * io.netty.buffer.ByteBuf)} writes those two as strings; a custom auth type's length is also written minus one, and a
 * simple username's length is 16 bits ({@link dev.sluice.frame.metadata.AuthMetadata}).
 */
package dev.sluice.frame.metadata;
