package dev.sluice.rpc.grpc.internal;

import dev.sluice.rpc.RpcMetadata;
import io.grpc.Metadata;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * A gRPC call's request headers as the {@link RpcMetadata} an implementation reads: one entry per value, named by
 * the header; an ASCII header's text as UTF-8 bytes, a {@code -bin} header's bytes as they are. gRPC's own headers
 * are not the application's and are left out. Read only when the implementation looks ({@link #of}). Stateless.
 */
final class CallHeaders {

    private static final Set<String> TRANSPORT_HEADERS = Set.of("content-type", "user-agent", "te",
        "accept-encoding", "content-encoding");

    private CallHeaders() {
    }

    /** The headers as metadata, read when the implementation first looks at them. */
    static RpcMetadata of(Metadata headers) {
        return RpcMetadata.deferred(() -> read(headers));
    }

    static RpcMetadata read(Metadata headers) {
        RpcMetadata.Builder builder = null;
        for (String name : headers.keys()) {
            if (name.startsWith("grpc-") || TRANSPORT_HEADERS.contains(name)) {
                continue;
            }
            if (builder == null) {
                builder = RpcMetadata.builder();
            }
            if (name.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
                for (byte[] value : headers.getAll(Metadata.Key.of(name, Metadata.BINARY_BYTE_MARSHALLER))) {
                    builder.add(name, value);
                }
            } else {
                for (String value : headers.getAll(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER))) {
                    builder.add(name, value.getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        return builder == null ? RpcMetadata.EMPTY : builder.build();
    }
}
