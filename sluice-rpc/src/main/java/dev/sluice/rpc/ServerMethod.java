package dev.sluice.rpc;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import dev.sluice.core.Payload;
import dev.sluice.rpc.internal.MessagePayload;
import dev.sluice.rpc.internal.ProtobufCodec;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.Fuseable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * One bound method on the server side: decodes requests, calls the handler, encodes responses and turns failures
 * into status errors ({@link StatusErrors#toWire}). The functions that the reactive chains need are made once here,
 * not per call. Immutable and thread-safe.
 */
final class ServerMethod<Q extends MessageLite, R extends MessageLite> {

    private final RpcMethod<Q, R> method;
    /** The handler, whose exact type {@link RpcMethod.Kind} gives; checked by {@link RpcService.Builder}. */
    private final Function<Object, Object> handler;
    private final Function<R, Payload> encode = this::encode;
    private final Function<Payload, Q> decodeAndRelease = this::decodeAndRelease;

    @SuppressWarnings("unchecked")
    ServerMethod(RpcMethod<Q, R> method, Function<?, ?> handler) {
        this.method = method;
        this.handler = (Function<Object, Object>) handler;
    }

    RpcMethod<Q, R> method() {
        return method;
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
            throw new RpcException(RpcStatus.INVALID_ARGUMENT, "cannot decode the request of " + method.fullName()
                + ": " + e.getMessage());
        }
    }

    Mono<Payload> unary(Q request, RpcMetadata metadata) {
        Publisher<R> response = call(request);
        if (response instanceof Fuseable.ScalarCallable<?> constant) {
            // A handler that answers with a value it already has (Mono.just, Mono.empty): encode it now and hand
            // the engine a constant, which it answers without subscribing.
            return answerNow(constant);
        }
        return withMetadata(Mono.from(response), metadata).map(encode).onErrorMap(StatusErrors::toWire);
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
        Mono<Void> done = Mono.from(call(request));
        return withMetadata(done, metadata);
    }

    Flux<Payload> serverStreaming(Q request, RpcMetadata metadata) {
        Flux<R> responses = Flux.from(call(request));
        return withMetadata(responses, metadata).map(encode).onErrorMap(StatusErrors::toWire);
    }

    /**
     * A channel (client or bidirectional streaming) over the requester's payloads, the first included, each
     * decoded and released as the handler asks for it.
     */
    Flux<Payload> channel(Flux<Payload> payloads, RpcMetadata metadata) {
        Flux<Q> requests = payloads.map(decodeAndRelease);
        Flux<R> responses = Flux.from(call(requests));
        return withMetadata(responses, metadata).map(encode).onErrorMap(StatusErrors::toWire);
    }

    /** The handler's publisher, with a throw or a null turned into an error signal. */
    @SuppressWarnings("unchecked")
    private <T> Publisher<T> call(Object argument) {
        Object answer;
        try {
            answer = handler.apply(argument);
        } catch (Throwable t) {
            return Mono.error(t);
        }
        if (answer == null) {
            return Mono.error(new RpcException(RpcStatus.INTERNAL, "the handler of " + method.fullName()
                + " returned null"));
        }
        return (Publisher<T>) answer;
    }

    private static <T> Mono<T> withMetadata(Mono<T> mono, RpcMetadata metadata) {
        return metadata.isEmpty() ? mono : mono.contextWrite(Context.of(RpcMetadata.class, metadata));
    }

    private static <T> Flux<T> withMetadata(Flux<T> flux, RpcMetadata metadata) {
        return metadata.isEmpty() ? flux : flux.contextWrite(Context.of(RpcMetadata.class, metadata));
    }

    /** The response as a payload the engine serializes straight into its frame. */
    private Payload encode(R response) {
        return MessagePayload.of(response);
    }

    private Q decodeAndRelease(Payload payload) {
        try {
            return decode(payload);
        } finally {
            payload.release();
        }
    }
}
