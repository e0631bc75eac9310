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
 * <p>One instance per thread ({@link #current()}); its results are valid until that thread's next {@link #read}.
 */
public final class CallMetadataReader {

    /** See {@code RpcWire.EMPTY_STREAM_MIME_TYPE}. */
    public static final String EMPTY_STREAM_MIME_TYPE = "message/x.sluice.rpc.empty-stream.v0";

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
