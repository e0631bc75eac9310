package dev.sluice.rpc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.sluice.core.Payload;
import dev.sluice.rpc.internal.MessagePayload;
import dev.sluice.rpc.internal.ProtobufCodec;
import java.util.function.Function;
import reactor.core.Fuseable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One bound method as the RSocket router serves it: decodes requests, calls the {@link BoundMethod}, encodes
 * responses and turns failures into status errors ({@link StatusErrors#toWire}). The functions that the reactive
 * chains need are made once here, not per call. Immutable and thread-safe.
 */
final class ServerMethod<Q extends MessageLite, R extends MessageLite> {

    private final BoundMethod<Q, R> bound;
    private final RpcMethod<Q, R> method;
    private final Function<R, Payload> encode = this::encode;
    private final Function<Payload, Q> decodeAndRelease = this::decodeAndRelease;

    ServerMethod(BoundMethod<Q, R> bound) {
        this.bound = bound;
        this.method = bound.method();
    }

    RpcMethod<Q, R> method() {
        return method;
    }

    BoundMethod<Q, R> bound() {
        return bound;
    }

    /**
     * The request in {@code payload}'s data; borrows the payload.
     *
     * @throws RpcException {@link RpcStatus#INVALID_ARGUMENT} if the data is not the request message
     */
    Q decode(Payload payload) {
        try {
            return ProtobufCodec.decode(payload.dataBuffer(), payload.dataIndex(), payload.dataLength(),
                method.requestParser());
        } catch (InvalidProtocolBufferException e) {
            throw invalidRequest(e);
        }
    }

    Mono<Payload> unary(Q request, RpcMetadata metadata) {
        Mono<R> response = bound.unary(request, metadata);
        if (response instanceof Fuseable.ScalarCallable<?> constant) {
            // A handler that answers with a value it already has (Mono.just, Mono.empty): encode it now and hand
            // the engine a constant, which it answers without subscribing.
            return answerNow(constant);
        }
        return response.map(encode).onErrorMap(StatusErrors::toWire);
    }

    @SuppressWarnings("unchecked")
    private Mono<Payload> answerNow(Fuseable.ScalarCallable<?> constant) {
        try {
            R value = (R) constant.call();
            return value == null ? Mono.empty() : Mono.just(encode(value));
        } catch (Throwable t) {
            return Mono.error(StatusErrors.toWire(t));
        }
    }

    Mono<Void> fireAndForget(Q request, RpcMetadata metadata) {
        return bound.fireAndForget(request, metadata);
    }

    Flux<Payload> serverStreaming(Q request, RpcMetadata metadata) {
        return bound.serverStreaming(request, metadata).map(encode).onErrorMap(StatusErrors::toWire);
    }

    /**
     * A channel (client or bidirectional streaming) over the requester's payloads, the first included, each
     * decoded and released as the handler asks for it.
     */
    Flux<Payload> channel(Flux<Payload> payloads, RpcMetadata metadata) {
        Flux<Q> requests = payloads.map(decodeAndRelease);
        Flux<R> responses = method.kind() == RpcMethod.Kind.CLIENT_STREAMING
            ? Flux.from(bound.clientStreaming(requests, metadata)) : bound.bidiStreaming(requests, metadata);
        return responses.map(encode).onErrorMap(StatusErrors::toWire);
    }

    /** The response as a payload the engine serializes straight into its frame. */
    private Payload encode(R response) {
        return MessagePayload.of(response);
    }

    /** One request of a channel, released: decoded as one of a stream of them (see ProtobufCodec). */
    private Q decodeAndRelease(Payload payload) {
        try {
            return ProtobufCodec.decodeCopied(payload.dataBuffer(), payload.dataIndex(), payload.dataLength(),
                method.requestParser());
        } catch (InvalidProtocolBufferException e) {
            throw invalidRequest(e);
        } finally {
            payload.release();
        }
    }

    private RpcException invalidRequest(InvalidProtocolBufferException e) {
        return new RpcException(RpcStatus.INVALID_ARGUMENT, "cannot decode the request of " + method.fullName()
            + ": " + e.getMessage());
    }
}
