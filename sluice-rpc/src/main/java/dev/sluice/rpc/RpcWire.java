package dev.sluice.rpc;

import dev.sluice.rpc.internal.CallMetadataReader;

/**
 * Names that belong to Sluice RPC's wire format ({@code docs/rpc.md}).
 */
public final class RpcWire {

    /**
     * The MIME type of the composite-metadata entry (empty content) that marks the first REQUEST_CHANNEL frame of a
     * call whose client sends no message at all: that frame carries the route but no request, and its data (empty)
     * is not a message.
     */
    public static final String EMPTY_STREAM_MIME_TYPE = CallMetadataReader.EMPTY_STREAM_MIME_TYPE;

    private RpcWire() {
    }
}
