package dev.sluice.rpc;

import com.google.protobuf.MessageLite;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.frame.metadata.MalformedMetadataException;
import dev.sluice.rpc.internal.CallMetadataReader;
import dev.sluice.rpc.internal.RouteTable;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;

/**
 * Serves bound services ({@link RpcService}) as an RSocket handler: each request's route, the first tag of the
 * routing entry in its composite metadata, picks the method from a table built once, looked up from the received
 * bytes (no string is built per call, nothing is looked up reflectively).
 *
 * <p>Requests the router cannot serve are answered, never dropped: no metadata, no routing entry, or malformed
 * composite metadata get {@link RpcStatus#INVALID_ARGUMENT}; a route no service has, or a method called with the
 * wrong interaction, {@link RpcStatus#UNIMPLEMENTED}; a request that is not the method's message,
 * {@link RpcStatus#INVALID_ARGUMENT}. Fire-and-forget has no answer: such failures are only logged by the engine.
 * A router made with {@link #orElse} hands the requests that carry no route (no metadata, metadata that is not
 * composite, or composite without a routing entry) to another handler instead, so one server can speak RPC and
 * raw RSocket.
 *
 * <pre>{@code
 * RpcRouter router = RpcRouter.of(EchoRpc.bind(new MyEcho()));
 * RSocketServer.create(router.acceptor()).bind(TcpServerTransport.create("127.0.0.1", 7878));
 * }</pre>
 *
 * <p>Thread-safe; one router can serve every connection.
 */
public final class RpcRouter implements RSocket {

    private final RouteTable<ServerMethod<?, ?>> routes;
    private final Set<String> serviceNames;
    /** Serves requests without a route; null: they are refused. */
    private final RSocket fallback;

    private RpcRouter(RpcRouter router, RSocket fallback) {
        this.routes = router.routes;
        this.serviceNames = router.serviceNames;
        this.fallback = fallback;
    }

    private RpcRouter(List<RpcService> services) {
        this.serviceNames = new HashSet<>();
        this.fallback = null;
        List<byte[]> keys = new ArrayList<>();
        List<ServerMethod<?, ?>> values = new ArrayList<>();
        for (RpcService service : services) {
            if (!serviceNames.add(service.name())) {
                throw new IllegalArgumentException("service registered twice: " + service.name());
            }
            for (ServerMethod<?, ?> m : service.serverMethods()) {
                keys.add(m.method().route());
                values.add(m);
            }
        }
        this.routes = new RouteTable<>(keys, values);
    }

    /** A router serving {@code services}; their names must differ. */
    public static RpcRouter of(RpcService... services) {
        return new RpcRouter(List.of(services));
    }

    /** A router serving {@code services}; their names must differ. */
    public static RpcRouter of(List<RpcService> services) {
        return new RpcRouter(List.copyOf(services));
    }

    /**
     * This router, handing requests that carry no route to {@code fallback} (which then owns their payloads):
     * one server for RPC clients and for plain RSocket requesters. Requests with a route it does not know are
     * still answered UNIMPLEMENTED.
     */
    public RpcRouter orElse(RSocket fallback) {
        return new RpcRouter(this, Objects.requireNonNull(fallback, "fallback"));
    }

    /** An acceptor that serves every connection with this router. */
    public SocketAcceptor acceptor() {
        return SocketAcceptor.with(this);
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        if (fallback != null && !carriesRoute(payload)) {
            return fallback.requestResponse(payload);
        }
        try {
            ServerMethod<?, ?> method = route(payload, RpcMethod.Kind.UNARY, "REQUEST_RESPONSE");
            return unary(method, payload);
        } catch (RpcException e) {
            return Mono.error(StatusErrors.toWire(e));
        } finally {
            payload.release();
        }
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        if (fallback != null && !carriesRoute(payload)) {
            return fallback.fireAndForget(payload);
        }
        try {
            ServerMethod<?, ?> method = route(payload, RpcMethod.Kind.FIRE_AND_FORGET, "REQUEST_FNF");
            return fireAndForget(method, payload);
        } catch (RpcException e) {
            return Mono.error(e);
        } finally {
            payload.release();
        }
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        if (fallback != null && !carriesRoute(payload)) {
            return fallback.requestStream(payload);
        }
        try {
            ServerMethod<?, ?> method = route(payload, RpcMethod.Kind.SERVER_STREAMING, "REQUEST_STREAM");
            return serverStreaming(method, payload);
        } catch (RpcException e) {
            return Flux.error(StatusErrors.toWire(e));
        } finally {
            payload.release();
        }
    }

    /**
     * Routes on the channel's first payload, which the handler then receives as its first request; a first
     * payload marked as an empty stream is routed and dropped. Payloads that Reactor drops (the first one when
     * the call fails before the handler subscribes) are released by the discard hook.
     */
    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return Flux.from(payloads)
            .switchOnFirst(this::openChannel)
            .doOnDiscard(Payload.class, RpcRouter::releaseDiscarded);
    }

    private Publisher<Payload> openChannel(Signal<? extends Payload> first, Flux<Payload> payloads) {
        if (!first.hasValue()) {
            Throwable error = first.getThrowable();
            return error != null ? Flux.error(error) : Flux.empty();
        }
        Payload opening = first.get();
        if (fallback != null && !carriesRoute(opening)) {
            return fallback.requestChannel(payloads);
        }
        ServerMethod<?, ?> method;
        RpcMetadata metadata;
        boolean emptyStream;
        try {
            method = route(opening, RpcMethod.Kind.BIDI_STREAMING, "REQUEST_CHANNEL");
            metadata = perCallMetadata(opening);
            emptyStream = CallMetadataReader.current().emptyStream();
        } catch (RpcException e) {
            return Flux.error(StatusErrors.toWire(e));
        }
        return method.channel(emptyStream ? payloads.skip(1) : payloads, metadata);
    }

    private static <Q extends MessageLite> Mono<Payload> unary(ServerMethod<Q, ?> method, Payload payload) {
        RpcMetadata metadata = perCallMetadata(payload);
        return method.unary(method.decode(payload), metadata);
    }

    private static <Q extends MessageLite> Mono<Void> fireAndForget(ServerMethod<Q, ?> method, Payload payload) {
        RpcMetadata metadata = perCallMetadata(payload);
        return method.fireAndForget(method.decode(payload), metadata);
    }

    private static <Q extends MessageLite> Flux<Payload> serverStreaming(ServerMethod<Q, ?> method,
                                                                          Payload payload) {
        RpcMetadata metadata = perCallMetadata(payload);
        return method.serverStreaming(method.decode(payload), metadata);
    }

    /**
     * The method {@code payload} routes to.
     *
     * @param expected the kind the interaction serves; for a channel, either streaming kind
     * @throws RpcException with the status the caller gets
     */
    private ServerMethod<?, ?> route(Payload payload, RpcMethod.Kind expected, String interaction) {
        if (!payload.hasMetadata()) {
            throw new RpcException(RpcStatus.INVALID_ARGUMENT, "missing routing metadata: " + interaction
                + " carried no metadata");
        }
        // The metadata's region of the frame, read in place: no view of it is made.
        ByteBuf md = payload.metadataBuffer();
        int mdIndex = payload.metadataIndex();
        int mdLength = payload.metadataLength();
        CallMetadataReader reader = CallMetadataReader.current();
        ServerMethod<?, ?> method = (ServerMethod<?, ?>) reader.cached(routes, md, mdIndex, mdLength);
        if (method == null) {
            method = lookUp(reader, md, mdIndex, mdLength);
            reader.remember(routes, md, mdIndex, mdLength, method);
        }
        RpcMethod.Kind kind = method.method().kind();
        boolean channel = expected == RpcMethod.Kind.BIDI_STREAMING;
        boolean accepted = channel
            ? kind == RpcMethod.Kind.BIDI_STREAMING || kind == RpcMethod.Kind.CLIENT_STREAMING
            : kind == expected;
        if (!accepted) {
            throw new RpcException(RpcStatus.UNIMPLEMENTED, method.method().fullName() + " is " + kind
                + ", called with " + interaction);
        }
        return method;
    }

    /** Reads the metadata and finds its route's method; throws with the caller's status if it cannot. */
    private ServerMethod<?, ?> lookUp(CallMetadataReader reader, ByteBuf md, int mdIndex, int mdLength) {
        boolean routed;
        try {
            routed = reader.read(md, mdIndex, mdLength);
        } catch (MalformedMetadataException e) {
            throw new RpcException(RpcStatus.INVALID_ARGUMENT, "malformed composite metadata: " + e.getMessage());
        }
        if (!routed) {
            throw new RpcException(RpcStatus.INVALID_ARGUMENT, "missing routing metadata: no "
                + "message/x.rsocket.routing.v0 entry with a tag in the composite metadata");
        }
        ServerMethod<?, ?> method = routes.get(md, reader.routeIndex(), reader.routeLength());
        if (method == null) {
            throw unknownRoute(md.toString(reader.routeIndex(), reader.routeLength(), StandardCharsets.UTF_8));
        }
        return method;
    }

    private RpcException unknownRoute(String route) {
        int slash = route.indexOf('/');
        if (slash > 0 && serviceNames.contains(route.substring(0, slash))) {
            return new RpcException(RpcStatus.UNIMPLEMENTED, "unknown method " + route.substring(slash + 1)
                + " of service " + route.substring(0, slash));
        }
        return new RpcException(RpcStatus.UNIMPLEMENTED, "unknown service in route " + route);
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        if (fallback != null) {
            return fallback.metadataPush(payload);
        }
        return RSocket.super.metadataPush(payload);
    }

    /**
     * Whether {@code payload}'s metadata is composite with a routing entry (what {@link #route} reads again:
     * reading composite metadata allocates nothing, and only a router with a fallback asks).
     */
    private static boolean carriesRoute(Payload payload) {
        if (!payload.hasMetadata()) {
            return false;
        }
        try {
            return CallMetadataReader.current().read(payload.metadataBuffer(), payload.metadataIndex(),
                payload.metadataLength());
        } catch (MalformedMetadataException e) {
            return false;
        }
    }

    /** The per-call metadata of the payload {@link #route} just read (on this thread). */
    private static RpcMetadata perCallMetadata(Payload payload) {
        if (!CallMetadataReader.current().otherEntries()) {
            return RpcMetadata.EMPTY;
        }
        return RpcMetadata.read(payload.metadataBuffer(), payload.metadataIndex(), payload.metadataLength());
    }

    /**
     * Releases a payload Reactor dropped. Only payloads no one else has released arrive here: those the engine
     * delivered and no operator passed on (a decoded payload is released by the decoder, which emits a message).
     */
    private static void releaseDiscarded(Payload payload) {
        payload.release();
    }
}
