package dev.sluice.rpc;

import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.frame.metadata.CompositeMetadataCursor;
import dev.sluice.frame.metadata.WellKnownMimeType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * Per-call metadata: composite-metadata entries that travel with a call next to its route, such as a tracing or an
 * authentication entry. A client passes them to a generated method's {@code (request, metadata)} overload; an
 * implementation reads the ones it received with {@link #current()}.
 *
 * <p>Immutable and thread-safe; contents are copied in and out of the network buffers, so an instance outlives
 * the call. A call without such entries costs nothing: it sees {@link #EMPTY}.
 */
public final class RpcMetadata {

    /** No entries. */
    public static final RpcMetadata EMPTY = new RpcMetadata(List.of());

    /**
     * One entry.
     *
     * @param mimeType the entry's MIME type, e.g. {@code message/x.rsocket.authentication.v0}; a received entry
     *     that names a well-known id no MIME type is assigned to reads as {@code unassigned-id-N}
     * @param content  the entry's bytes; not copied by accessors, do not modify
     */
    public record Entry(String mimeType, byte[] content) {
    }

    /** Null until read for {@link #deferred} metadata; set at construction otherwise. */
    private volatile List<Entry> entries;
    /** Where deferred metadata comes from; null otherwise. */
    private final Supplier<RpcMetadata> source;

    private RpcMetadata(List<Entry> entries) {
        this.entries = entries;
        this.source = null;
    }

    private RpcMetadata(Supplier<RpcMetadata> source) {
        this.source = source;
    }

    /** A builder of metadata. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The metadata the current call received, for an implementation: read it inside the Mono or Flux it returns,
     * e.g. {@code RpcMetadata.current().map(md -> md.getUtf8("application/x.trace"))}. {@link #EMPTY} outside a call
     * or when the call had none.
     */
    public static Mono<RpcMetadata> current() {
        return Mono.deferContextual(ctx -> Mono.just(ctx.getOrDefault(RpcMetadata.class, EMPTY)));
    }

    /**
     * Metadata read from {@code source} when first looked at, for a protocol whose metadata costs something to read
     * (gRPC's headers) while most calls never look: a handler answering with a constant never does.
     * {@code source} is called at most once per thread that races to read first; it must be side-effect free.
     */
    public static RpcMetadata deferred(Supplier<RpcMetadata> source) {
        if (source == null) {
            throw new IllegalArgumentException("source must not be null");
        }
        return new RpcMetadata(source);
    }

    /** The entries in the order they were added or received. */
    public List<Entry> entries() {
        List<Entry> e = entries;
        if (e == null) {
            RpcMetadata read = source.get();
            e = read == null ? List.of() : read.entries();
            entries = e;
        }
        return e;
    }

    public boolean isEmpty() {
        return entries().isEmpty();
    }

    /** Empty, known without reading deferred metadata. */
    boolean knownEmpty() {
        List<Entry> e = entries;
        return e != null && e.isEmpty();
    }

    /** The content of the first entry with this MIME type, or null. */
    public byte[] get(String mimeType) {
        for (Entry e : entries()) {
            if (e.mimeType().equals(mimeType)) {
                return e.content();
            }
        }
        return null;
    }

    /** The content of the first entry with this MIME type decoded as UTF-8, or null. */
    public String getUtf8(String mimeType) {
        byte[] content = get(mimeType);
        return content == null ? null : new String(content, StandardCharsets.UTF_8);
    }

    /** Appends the entries to {@code out} as composite metadata. */
    void writeTo(ByteBuf out) {
        for (Entry e : entries()) {
            CompositeMetadata.addEntry(out, e.mimeType(), Unpooled.wrappedBuffer(e.content()));
        }
    }

    /**
     * The entries of the composite metadata at {@code [index, index + length)} other than the routing entry and
     * Sluice RPC's own ({@link RpcWire}). Copies the contents.
     *
     * @throws dev.sluice.frame.metadata.MalformedMetadataException if the metadata is malformed
     */
    static RpcMetadata read(ByteBuf buf, int index, int length) {
        CompositeMetadataCursor c = CompositeMetadata.cursor(buf, index, length);
        List<Entry> entries = new ArrayList<>();
        while (c.next()) {
            if (c.mimeId() == WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.id()
                || c.mimeTypeEquals(RpcWire.EMPTY_STREAM_MIME_TYPE)) {
                continue;
            }
            String mimeType = c.mimeType();
            if (mimeType == null) {
                mimeType = "unassigned-id-" + c.mimeId();
            }
            byte[] content = new byte[c.contentLength()];
            buf.getBytes(c.contentIndex(), content);
            entries.add(new Entry(mimeType, content));
        }
        return entries.isEmpty() ? EMPTY : new RpcMetadata(List.copyOf(entries));
    }

    /** Builds {@link RpcMetadata}. Not thread-safe. */
    public static final class Builder {
        private final List<Entry> entries = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds an entry; {@code content} is copied.
         *
         * @throws IllegalArgumentException for the routing MIME type (the route is the method's) or a null argument
         */
        public Builder add(String mimeType, byte[] content) {
            if (mimeType == null || content == null) {
                throw new IllegalArgumentException("mimeType and content must not be null: mimeType=" + mimeType);
            }
            if (mimeType.equals(WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.string())
                || mimeType.equals(RpcWire.EMPTY_STREAM_MIME_TYPE)) {
                throw new IllegalArgumentException("metadata entry " + mimeType + " is written by the RPC layer");
            }
            entries.add(new Entry(mimeType, content.clone()));
            return this;
        }

        /** Adds an entry holding {@code content} as UTF-8. */
        public Builder addUtf8(String mimeType, String content) {
            return add(mimeType, content == null ? null : content.getBytes(StandardCharsets.UTF_8));
        }

        public RpcMetadata build() {
            return entries.isEmpty() ? EMPTY : new RpcMetadata(List.copyOf(entries));
        }
    }
}
