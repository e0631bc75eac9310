package dev.sluice.rpc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.rpc.internal.MessagePayload;
import dev.sluice.rpc.internal.ProtobufCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Makes RPC calls over an {@link RSocket} (a {@code Connection}, a balancer, any requester): what generated clients
 * delegate to. Each call encodes its request when subscribed, so a call can be retried by resubscribing, and fails
 * with an {@link RpcException} whatever went wrong.
 *
 * <p>Cancelling a call's subscription (a {@code timeout}, a {@code take}) cancels it on the wire; streaming calls
 * carry the subscriber's demand to the peer as REQUEST_N. Thread-safe.
 */
public final class RpcRequester {

    private final RSocket rsocket;
    private final ByteBufAllocator allocator;

    /** A requester sending over {@code rsocket}, with per-call metadata in the default allocator's buffers. */
    public RpcRequester(RSocket rsocket) {
        this(rsocket, ByteBufAllocator.DEFAULT);
    }

    /**
     * A requester sending over {@code rsocket}, with per-call metadata in {@code allocator}'s buffers. Messages
     * need none: the engine serializes each straight into the frame that carries it.
     */
    public RpcRequester(RSocket rsocket, ByteBufAllocator allocator) {
        if (rsocket == null || allocator == null) {
            throw new IllegalArgumentException("rsocket and allocator must not be null");
        }
        this.rsocket = rsocket;
        this.allocator = allocator;
    }

    /** A unary call: REQUEST_RESPONSE. */
    public <Q extends MessageLite, R extends MessageLite> Mono<R> unary(RpcMethod<Q, R> method, Q request,
                                                                        RpcMetadata metadata) {
        return new UnaryCall<>(this, method, request, metadata);
    }

    /** A fire-and-forget call: REQUEST_FNF; completes once the request is handed to the connection. */
    public <Q extends MessageLite> Mono<Void> fireAndForget(RpcMethod<Q, ?> method, Q request,
                                                            RpcMetadata metadata) {
        return Mono.defer(() -> rsocket.fireAndForget(opening(method, request, metadata)))
            .onErrorMap(StatusErrors::fromCall);
    }

    /** A server-streaming call: REQUEST_STREAM. */
    public <Q extends MessageLite, R extends MessageLite> Flux<R> serverStreaming(RpcMethod<Q, R> method, Q request,
                                                                                  RpcMetadata metadata) {
        return new ServerStreamingCall<>(this, method, request, metadata);
    }

    /** A client-streaming call: REQUEST_CHANNEL, one response expected. */
    public <Q extends MessageLite, R extends MessageLite> Mono<R> clientStreaming(
            RpcMethod<Q, R> method, Publisher<? extends Q> requests, RpcMetadata metadata) {
        return rsocket.requestChannel(outbound(method, requests, metadata))
            .map(p -> decodeAndRelease(method, p, false))
            .singleOrEmpty()
            .onErrorMap(StatusErrors::fromCall);
    }

    /** A bidirectional-streaming call: REQUEST_CHANNEL. */
    public <Q extends MessageLite, R extends MessageLite> Flux<R> bidiStreaming(
            RpcMethod<Q, R> method, Publisher<? extends Q> requests, RpcMetadata metadata) {
        return rsocket.requestChannel(outbound(method, requests, metadata))
            .map(p -> decodeAndRelease(method, p, true))
            .onErrorMap(StatusErrors::fromCall);
    }

    /**
     * The channel's payloads: the first carries the route and per-call metadata with the first request; later
     * ones carry a request and no metadata. A stream that ends before its first request still opens the call,
     * with one payload that carries the route and the empty-stream marker and no request.
     */
    private <Q extends MessageLite> Flux<Payload> outbound(RpcMethod<Q, ?> method, Publisher<? extends Q> requests,
                                                           RpcMetadata metadata) {
        return Flux.defer(() -> {
            boolean[] opened = new boolean[1];
            return Flux.<Q>from(requests)
                .map(request -> {
                    if (opened[0]) {
                        return checkedPayload(method, request);
                    }
                    opened[0] = true;
                    return opening(method, request, metadata);
                })
                .switchIfEmpty(Mono.fromSupplier(() -> emptyStreamOpening(method, metadata)));
        });
    }

    RSocket rsocket() {
        return rsocket;
    }

    /**
     * The first (or only) payload of a call: the request, serialized by the engine straight into its frame, and the
     * route with the per-call metadata (the method's shared route when there is none).
     */
    Payload opening(RpcMethod<?, ?> method, MessageLite request, RpcMetadata metadata) {
        checkRequest(method, request);
        return metadata.isEmpty()
            ? MessagePayload.withSharedRoute(request, method.routeMetadata())
            : MessagePayload.withMetadata(request, writableRouteMetadata(method, metadata));
    }

    /** A later request of a channel: no metadata. */
    private static Payload checkedPayload(RpcMethod<?, ?> method, MessageLite request) {
        checkRequest(method, request);
        return MessagePayload.of(request);
    }

    private static void checkRequest(RpcMethod<?, ?> method, MessageLite request) {
        if (request == null) {
            throw new IllegalArgumentException("request of " + method.fullName() + " is null");
        }
    }

    private Payload emptyStreamOpening(RpcMethod<?, ?> method, RpcMetadata metadata) {
        ByteBuf md = writableRouteMetadata(method, metadata);
        CompositeMetadata.addCustomEntry(md, RpcWire.EMPTY_STREAM_MIME_TYPE, null);
        return Payload.create(Unpooled.EMPTY_BUFFER, md);
    }

    /** The route and the per-call metadata in a new buffer that more entries may be added to. */
    private ByteBuf writableRouteMetadata(RpcMethod<?, ?> method, RpcMetadata metadata) {
        byte[] routing = method.routingEntry();
        ByteBuf md = allocator.buffer(routing.length + (metadata.isEmpty() ? 0 : 64));
        try {
            md.writeBytes(routing);
            metadata.writeTo(md);
            return md;
        } catch (RuntimeException e) {
            md.release();
            throw e;
        }
    }

    /** The response in {@code payload}, released; {@code ofStream}: one of a stream of responses. */
    static <R extends MessageLite> R decodeAndRelease(RpcMethod<?, R> method, Payload payload, boolean ofStream) {
        try {
            return ofStream
                ? ProtobufCodec.decodeCopied(payload.dataBuffer(), payload.dataIndex(), payload.dataLength(),
                    method.responseParser())
                : ProtobufCodec.decode(payload.dataBuffer(), payload.dataIndex(), payload.dataLength(),
                    method.responseParser());
        } catch (InvalidProtocolBufferException e) {
            throw new RpcException(RpcStatus.INTERNAL, "cannot decode the response of " + method.fullName() + ": "
                + e.getMessage(), e);
        } finally {
            payload.release();
        }
    }
}
