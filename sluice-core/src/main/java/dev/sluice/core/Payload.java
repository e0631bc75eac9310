package dev.sluice.core;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCounted;
import java.nio.charset.StandardCharsets;

/**
 * One RSocket message: data and optional metadata, both reference-counted Netty buffers.
 *
 * <p><b>Ownership.</b> A payload handed to Sluice (a request argument, an element emitted by a handler) is taken
 * over: Sluice releases it once written or dropped. A payload Sluice hands to you (a response, a request arriving
 * at a handler) is yours: release it when done, or hand it back to Sluice. Received payloads are zero-copy views
 * of the network buffer, so holding one keeps that buffer alive.
 *
 * <p><b>Copies.</b> Code that would rather not count references can work with heap copies: {@link #copyOf} makes
 * one from any payload, and {@link PayloadDecoder#COPY} makes every received payload one. A copy holds no network
 * buffer; its {@code release()} does nothing and a copy never released is simply garbage-collected.
 *
 * <p><b>Data that writes itself.</b> A payload that is also a {@link dev.sluice.frame.FrameData} (extends it) has
 * its data written by it straight into the outgoing frame, with no buffer of its own in between (how an RPC message
 * is serialized), and its metadata read in place through {@link #metadataBuffer()}, {@link #metadataIndex()} and
 * {@link #metadataLength()}. Its {@link #data()} and {@link #metadata()} must still give the same bytes to whoever
 * else reads it.
 *
 * <p>Not thread-safe beyond the reference count: read it from one thread at a time.
 */
public interface Payload extends ReferenceCounted {

    /** The data; empty, never null. The buffer is owned by the payload: do not release it separately. */
    ByteBuf data();

    /** The metadata, or an empty buffer when {@link #hasMetadata()} is false. Owned by the payload. */
    ByteBuf metadata();

    /** Whether metadata was present: RSocket distinguishes "no metadata" from "empty metadata". */
    boolean hasMetadata();

    /**
     * The buffer the data can be read from without making a view of it: the data is the {@link #dataLength()}
     * bytes from {@link #dataIndex()}. For a received payload this is the frame it arrived in, so a parser that
     * reads by index (a protobuf decoder, a metadata cursor) allocates nothing; {@link #data()} makes a view on
     * first use. Borrowed: do not release, retain or move its indexes; valid until the payload is released.
     */
    default ByteBuf dataBuffer() {
        return data();
    }

    /** Where the data starts in {@link #dataBuffer()}. */
    default int dataIndex() {
        return data().readerIndex();
    }

    /** How many bytes of data there are. */
    default int dataLength() {
        return data().readableBytes();
    }

    /** As {@link #dataBuffer()}, for the metadata (empty when there is none). */
    default ByteBuf metadataBuffer() {
        return metadata();
    }

    /** Where the metadata starts in {@link #metadataBuffer()}. */
    default int metadataIndex() {
        return metadata().readerIndex();
    }

    /** How many bytes of metadata there are (0 when there is none). */
    default int metadataLength() {
        return metadata().readableBytes();
    }

    /** The data decoded as UTF-8. */
    default String dataUtf8() {
        return data().toString(StandardCharsets.UTF_8);
    }

    /** The metadata decoded as UTF-8 (empty when absent). */
    default String metadataUtf8() {
        return metadata().toString(StandardCharsets.UTF_8);
    }

    @Override
    Payload retain();

    @Override
    Payload retain(int increment);

    @Override
    Payload touch();

    @Override
    Payload touch(Object hint);

    /** A payload over {@code data} with no metadata; takes ownership of {@code data}. */
    static Payload create(ByteBuf data) {
        return RefCountedPayload.create(data, null);
    }

    /** A payload over {@code data} and {@code metadata} (null = absent); takes ownership of both. */
    static Payload create(ByteBuf data, ByteBuf metadata) {
        return RefCountedPayload.create(data, metadata);
    }

    /**
     * A payload over regions of one buffer, without copying: {@code buffer[dataOffset, +dataLength)} is the data
     * and {@code buffer[metadataOffset, +metadataLength)} the metadata ({@code metadataLength} -1 = absent). Takes
     * one new reference to {@code buffer} (the caller keeps its own) and releases it with the payload; the data and
     * metadata views share that reference and are made on first use. How received frames become payloads.
     */
    static Payload ofRegions(ByteBuf buffer, int metadataOffset, int metadataLength, int dataOffset,
                             int dataLength) {
        return RefCountedPayload.regions(buffer, metadataOffset, metadataLength, dataOffset, dataLength);
    }

    /**
     * As {@link #ofRegions}, for a buffer the caller has only on loan (a frame during a transport's
     * {@code onFrame} call): the payload borrows {@code buffer} without taking a reference, the caller keeps the
     * buffer unchanged until it calls {@link #endBorrow} with this payload, on this thread, and that call takes the
     * payload's reference to the buffer if the payload is still held then. A payload released before
     * {@code endBorrow} (a handler that answers at once) never touches the buffer's reference count. For engines
     * and transports; applications use {@link #create}.
     */
    static Payload borrowRegions(ByteBuf buffer, int metadataOffset, int metadataLength, int dataOffset,
                                 int dataLength) {
        return RefCountedPayload.borrowed(buffer, metadataOffset, metadataLength, dataOffset, dataLength);
    }

    /**
     * As {@link #borrowRegions(ByteBuf, int, int, int, int)}, for a caller that lends frame after frame on one
     * thread: pass the payload of the previous frame as {@code reuse} when {@link #endBorrow} returned true for it,
     * and that instance carries this frame (else, and for null, a new one does). Saves the pool's round trip on
     * every frame whose payload is released before its loan ends; a stale reference to the previous message then
     * reads this one, as with any pooled payload.
     */
    static Payload borrowRegions(Payload reuse, ByteBuf buffer, int metadataOffset, int metadataLength,
                                 int dataOffset, int dataLength) {
        return RefCountedPayload.borrowed(reuse instanceof RefCountedPayload r ? r : null, buffer, metadataOffset,
            metadataLength, dataOffset, dataLength);
    }

    /**
     * Ends the loan of a payload made by {@link #borrowRegions} (see there); called once, by its maker, whether
     * or not the payload was released meanwhile. Does nothing for any other payload.
     *
     * @return whether the payload had been released: its maker may then pass it to {@link #borrowRegions(Payload,
     *     ByteBuf, int, int, int, int)} for the next frame
     */
    static boolean endBorrow(Payload payload) {
        return payload instanceof RefCountedPayload p && p.settle();
    }

    /** A payload holding {@code data} as UTF-8, without metadata. */
    static Payload create(CharSequence data) {
        return RefCountedPayload.create(utf8(data), null);
    }

    /** A payload holding {@code data} and {@code metadata} (null = absent) as UTF-8. */
    static Payload create(CharSequence data, CharSequence metadata) {
        return RefCountedPayload.create(utf8(data), metadata == null ? null : utf8(metadata));
    }

    /**
     * A payload holding a copy of {@code data}, without metadata: changing the array afterwards does not change the
     * message. To send an array without the copy, hand over a buffer that wraps it,
     * {@code Payload.create(Unpooled.wrappedBuffer(array))}, and leave the array alone until the payload is released.
     */
    static Payload create(byte[] data) {
        return RefCountedPayload.create(copy(data), null);
    }

    /** A payload holding copies of {@code data} and {@code metadata} (null = absent), as {@link #create(byte[])}. */
    static Payload create(byte[] data, byte[] metadata) {
        return RefCountedPayload.create(copy(data), metadata == null ? null : copy(metadata));
    }

    /**
     * A heap copy of {@code source}'s data and metadata that needs no release: its {@code release()} does nothing,
     * and once unreachable the garbage collector frees it. {@code source} is borrowed: it stays the caller's to
     * release. Use it to keep a received payload's content beyond the handler (in a cache, in another thread's
     * queue) without holding the network buffer it arrived in. Handing a copy to Sluice is fine: Sluice's release
     * of it does nothing.
     */
    static Payload copyOf(Payload source) {
        return CopiedPayload.of(source);
    }

    private static ByteBuf copy(byte[] bytes) {
        if (bytes.length == 0) {
            return Unpooled.EMPTY_BUFFER;
        }
        return ByteBufAllocator.DEFAULT.buffer(bytes.length).writeBytes(bytes);
    }

    private static ByteBuf utf8(CharSequence s) {
        return s.length() == 0 ? Unpooled.EMPTY_BUFFER : ByteBufUtil.writeUtf8(ByteBufAllocator.DEFAULT, s);
    }
}
