package dev.sluice.rpc;

import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.frame.metadata.RoutingMetadata;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One method of a service: its route (the gRPC full name {@code package.Service/Method}), how it is called, and how
 * its messages are parsed. Generated code makes one per method, once, as a constant; the route's bytes and the
 * composite-metadata routing entry a client sends are computed here, so that no call builds a string.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <Q> the request message
 * @param <R> the response message ({@code google.protobuf.Empty} for fire-and-forget)
 */
public final class RpcMethod<Q extends MessageLite, R extends MessageLite> {

    /** How a method is called, and the RSocket interaction that carries it. */
    public enum Kind {
        /** One request, one response: REQUEST_RESPONSE. */
        UNARY,
        /** One request, no response: REQUEST_FNF. */
        FIRE_AND_FORGET,
        /** One request, a stream of responses: REQUEST_STREAM. */
        SERVER_STREAMING,
        /** A stream of requests, one response: REQUEST_CHANNEL. */
        CLIENT_STREAMING,
        /** Streams both ways: REQUEST_CHANNEL. */
        BIDI_STREAMING
    }

    private final Kind kind;
    private final String fullName;
    private final Parser<Q> requestParser;
    private final Parser<R> responseParser;
    private final byte[] route;
    private final byte[] routingEntry;
    private final ByteBuf routeMetadata;

    private RpcMethod(Kind kind, String fullName, Parser<Q> requestParser, Parser<R> responseParser) {
        this.kind = kind;
        this.fullName = fullName;
        this.requestParser = requestParser;
        this.responseParser = responseParser;
        this.route = fullName.getBytes(StandardCharsets.UTF_8);
        ByteBuf entry = Unpooled.buffer();
        CompositeMetadata.addRoutingEntry(entry, List.of(fullName));
        this.routingEntry = new byte[entry.readableBytes()];
        entry.readBytes(routingEntry);
        this.routeMetadata = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(routingEntry).asReadOnly());
    }

    /**
     * A method descriptor.
     *
     * @param fullName {@code package.Service/Method} (no package for a package-less file), at most 255 UTF-8
     *     bytes so that it fits one routing tag
     * @throws IllegalArgumentException if an argument is null or the name is not {@code Service/Method}-shaped
     */
    public static <Q extends MessageLite, R extends MessageLite> RpcMethod<Q, R> create(
            Kind kind, String fullName, Parser<Q> requestParser, Parser<R> responseParser) {
        if (kind == null || requestParser == null || responseParser == null) {
            throw new IllegalArgumentException("kind and parsers must not be null: kind=" + kind);
        }
        if (fullName == null) {
            throw new IllegalArgumentException("full method name is null");
        }
        int slash = fullName.indexOf('/');
        if (slash <= 0 || slash == fullName.length() - 1 || fullName.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("full method name is not Service/Method: " + fullName);
        }
        RoutingMetadata.tagLength(fullName);
        return new RpcMethod<>(kind, fullName, requestParser, responseParser);
    }

    public Kind kind() {
        return kind;
    }

    /** The route: {@code package.Service/Method}. */
    public String fullName() {
        return fullName;
    }

    /** {@code package.Service}: the part of the route before the slash. */
    public String serviceName() {
        return fullName.substring(0, fullName.indexOf('/'));
    }

    public Parser<Q> requestParser() {
        return requestParser;
    }

    public Parser<R> responseParser() {
        return responseParser;
    }

    /** The route's UTF-8 bytes. Shared: do not modify. */
    byte[] route() {
        return route;
    }

    /** A complete composite-metadata entry routing to this method. Shared: do not modify. */
    byte[] routingEntry() {
        return routingEntry;
    }

    /**
     * The routing entry as request metadata: one read-only buffer that releasing does not free, shared by every
     * call (read in place, never moved), so a call without per-call metadata neither allocates nor copies the route.
     */
    ByteBuf routeMetadata() {
        return routeMetadata;
    }

    @Override
    public String toString() {
        return fullName + " (" + kind + ")";
    }
}
