package dev.sluice.rpc;

import com.google.protobuf.MessageLite;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.Fuseable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * One method of a service bound to the implementation's handler, called with decoded messages: what serves the
 * method over any protocol. The RSocket router ({@link RpcRouter}) calls it, and so does {@code sluice-rpc-grpc},
 * which serves the same implementation to gRPC clients.
 *
 * <p>A handler that throws or returns null becomes an error signal; {@code metadata} is what
 * {@link RpcMetadata#current()} reads inside the call. A unary handler's constant answer ({@code Mono.just}) is
 * returned as it is, so that a caller can send it without subscribing. Each call method checks the method's
 * {@link RpcMethod.Kind} and throws {@link IllegalStateException} on a mismatch.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <Q> the request message
 * @param <R> the response message
 */
public final class BoundMethod<Q extends MessageLite, R extends MessageLite> {

    private final RpcMethod<Q, R> method;
    /** The handler, whose exact type {@link RpcMethod.Kind} gives; checked by {@link RpcService.Builder}. */
    private final Function<Object, Object> handler;

    @SuppressWarnings("unchecked")
    BoundMethod(RpcMethod<Q, R> method, Function<?, ?> handler) {
        this.method = method;
        this.handler = (Function<Object, Object>) handler;
    }

    /** The method: its route, kind and parsers. */
    public RpcMethod<Q, R> method() {
        return method;
    }

    /** Calls a {@link RpcMethod.Kind#UNARY} method. */
    public Mono<R> unary(Q request, RpcMetadata metadata) {
        expect(RpcMethod.Kind.UNARY);
        return withMetadata(Mono.from(this.<R>call(request)), metadata);
    }

    /** Calls a {@link RpcMethod.Kind#FIRE_AND_FORGET} method. */
    public Mono<Void> fireAndForget(Q request, RpcMetadata metadata) {
        expect(RpcMethod.Kind.FIRE_AND_FORGET);
        return withMetadata(Mono.from(this.<Void>call(request)), metadata);
    }

    /** Calls a {@link RpcMethod.Kind#SERVER_STREAMING} method. */
    public Flux<R> serverStreaming(Q request, RpcMetadata metadata) {
        expect(RpcMethod.Kind.SERVER_STREAMING);
        return withMetadata(Flux.from(this.<R>call(request)), metadata);
    }

    /** Calls a {@link RpcMethod.Kind#CLIENT_STREAMING} method; the handler subscribes to {@code requests}. */
    public Mono<R> clientStreaming(Flux<Q> requests, RpcMetadata metadata) {
        expect(RpcMethod.Kind.CLIENT_STREAMING);
        return withMetadata(Mono.from(this.<R>call(requests)), metadata);
    }

    /** Calls a {@link RpcMethod.Kind#BIDI_STREAMING} method; the handler subscribes to {@code requests}. */
    public Flux<R> bidiStreaming(Flux<Q> requests, RpcMetadata metadata) {
        expect(RpcMethod.Kind.BIDI_STREAMING);
        return withMetadata(Flux.from(this.<R>call(requests)), metadata);
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

    private void expect(RpcMethod.Kind kind) {
        if (method.kind() != kind) {
            throw new IllegalStateException(method.fullName() + " is " + method.kind() + ", called as " + kind);
        }
    }

    /** {@code mono} reading {@code metadata} from its context; a constant cannot read it and stays a constant. */
    private static <T> Mono<T> withMetadata(Mono<T> mono, RpcMetadata metadata) {
        return metadata.knownEmpty() || mono instanceof Fuseable.ScalarCallable
            ? mono : mono.contextWrite(Context.of(RpcMetadata.class, metadata));
    }

    private static <T> Flux<T> withMetadata(Flux<T> flux, RpcMetadata metadata) {
        return metadata.knownEmpty() ? flux : flux.contextWrite(Context.of(RpcMetadata.class, metadata));
    }

    @Override
    public String toString() {
        return method.toString();
    }
}
