package dev.sluice.rpc.internal;

import dev.sluice.frame.metadata.CompositeMetadataCursor;
import dev.sluice.frame.metadata.RoutingMetadataCursor;
import dev.sluice.frame.metadata.WellKnownMimeType;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;

/**
 * Reads what the RPC layer needs from a request's composite metadata in one pass, without allocating: where the
 * route (the first tag of the first routing entry) lies, whether the empty-stream marker is there, and whether any
 * other entry (per-call metadata) is.
 *
 * <p>One instance per thread ({@link #current()}); its results are valid until that thread's next {@link #read} or
 * {@link #cached}. It also remembers the last routing-only metadata it read and what it routed to, so that the next
 * identical one is recognised by comparing bytes (it keeps that one value reachable from its thread).
 */
public final class CallMetadataReader {

    /** See {@code RpcWire.EMPTY_STREAM_MIME_TYPE}. */
    public static final String EMPTY_STREAM_MIME_TYPE = "message/x.sluice.rpc.empty-stream.v0";

    /** Metadata longer than this is never remembered. A route-only entry for a 32-byte method name takes 38. */
    static final int CACHE_MAX_BYTES = 64;

    private static final FastThreadLocal<CallMetadataReader> READERS = new FastThreadLocal<>() {
        @Override
        protected CallMetadataReader initialValue() {
            return new CallMetadataReader();
        }
    };

    private final CompositeMetadataCursor entries = new CompositeMetadataCursor();
    private final RoutingMetadataCursor tags = new RoutingMetadataCursor();
    private int routeIndex;
    private int routeLength;
    private boolean emptyStream;
    private boolean otherEntries;

    /**
     * The last routing-only metadata remembered ({@link #remember}), as the 8-byte words {@link #cached} compares:
     * a client calls one method many times, and comparing its few bytes costs less than reading the entries and
     * looking the route up again.
     */
    private final long[] cachedWords = new long[CACHE_MAX_BYTES / Long.BYTES];
    private int cachedLength = -1;
    private Object cachedTable;
    private Object cachedValue;
    private int cachedRouteOffset;
    private int cachedRouteLength;

    private CallMetadataReader() {
    }

    /** This thread's reader. */
    public static CallMetadataReader current() {
        return READERS.get();
    }

    /**
     * Reads the composite metadata at {@code buf[index, index + length)}.
     *
     * @return whether it had a route
     * @throws dev.sluice.frame.metadata.MalformedMetadataException if an entry or tag runs past the end
     */
    public boolean read(ByteBuf buf, int index, int length) {
        routeIndex = -1;
        routeLength = 0;
        emptyStream = false;
        otherEntries = false;
        entries.wrap(buf, index, length);
        while (entries.next()) {
            if (entries.mimeId() == WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.id()) {
                if (routeIndex < 0) {
                    tags.wrap(buf, entries.contentIndex(), entries.contentLength());
                    if (tags.next()) {
                        routeIndex = tags.tagIndex();
                        routeLength = tags.tagLength();
                    }
                }
            } else if (entries.mimeTypeEquals(EMPTY_STREAM_MIME_TYPE)) {
                emptyStream = true;
            } else {
                otherEntries = true;
            }
        }
        return routeIndex >= 0;
    }

    /**
     * What {@link #remember} last stored for {@code table}, if {@code buf[index, index + length)} holds exactly the
     * bytes remembered with it; then this reader's results are those of reading them (the route at the same place,
     * no other entry, no marker), as if {@link #read} had been called. Otherwise null, and the results are as they
     * were.
     */
    public Object cached(Object table, ByteBuf buf, int index, int length) {
        if (table != cachedTable || length != cachedLength) {
            return null;
        }
        for (int k = 0, words = (length + Long.BYTES - 1) / Long.BYTES; k < words; k++) {
            if (buf.getLong(index + Math.min(k * Long.BYTES, length - Long.BYTES)) != cachedWords[k]) {
                return null;
            }
        }
        routeIndex = index + cachedRouteOffset;
        routeLength = cachedRouteLength;
        emptyStream = false;
        otherEntries = false;
        return cachedValue;
    }

    /**
     * Remembers {@code value} for {@code table} and the metadata at {@code buf[index, index + length)} just
     * {@link #read}, if it held a route and nothing else and is between 8 and {@link #CACHE_MAX_BYTES} long.
     */
    public void remember(Object table, ByteBuf buf, int index, int length, Object value) {
        if (routeIndex < 0 || otherEntries || emptyStream || length < Long.BYTES || length > CACHE_MAX_BYTES) {
            return;
        }
        for (int k = 0, words = (length + Long.BYTES - 1) / Long.BYTES; k < words; k++) {
            // The last word overlaps the one before it rather than reading past the region.
            cachedWords[k] = buf.getLong(index + Math.min(k * Long.BYTES, length - Long.BYTES));
        }
        cachedLength = length;
        cachedTable = table;
        cachedValue = value;
        cachedRouteOffset = routeIndex - index;
        cachedRouteLength = routeLength;
    }

    /** The absolute index of the route's first byte, -1 when there was none. */
    public int routeIndex() {
        return routeIndex;
    }

    public int routeLength() {
        return routeLength;
    }

    /** Whether the empty-stream marker was present. */
    public boolean emptyStream() {
        return emptyStream;
    }

    /** Whether an entry other than routing and the marker was present. */
    public boolean otherEntries() {
        return otherEntries;
    }
}
