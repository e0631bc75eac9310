package dev.sluice.rpc;

import com.google.protobuf.Descriptors;
import com.google.protobuf.MessageLite;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An implementation of one service, bound method by method: what a generated {@code XRpc.bind(implementation)}
 * returns and an {@link RpcRouter} serves. Hand-written bindings use the same builder.
 *
 * <p>Immutable and thread-safe.
 */
public final class RpcService {

    private final String name;
    private final List<ServerMethod<?, ?>> methods;
    private final Descriptors.ServiceDescriptor descriptor;

    private RpcService(String name, List<ServerMethod<?, ?>> methods, Descriptors.ServiceDescriptor descriptor) {
        this.name = name;
        this.methods = methods;
        this.descriptor = descriptor;
    }

    /** A builder for the service {@code serviceName} ({@code package.Service}). */
    public static Builder builder(String serviceName) {
        if (serviceName == null || serviceName.isEmpty() || serviceName.indexOf('/') >= 0) {
            throw new IllegalArgumentException("service name must be non-empty without '/': " + serviceName);
        }
        return new Builder(serviceName);
    }

    /** {@code package.Service}. */
    public String name() {
        return name;
    }

    /** The bound methods, in the order they were bound. */
    public List<RpcMethod<?, ?>> methods() {
        List<RpcMethod<?, ?>> list = new ArrayList<>(methods.size());
        for (ServerMethod<?, ?> m : methods) {
            list.add(m.method());
        }
        return list;
    }

    /** The bound methods, in the order they were bound: how another protocol calls the implementation. */
    public List<BoundMethod<?, ?>> boundMethods() {
        List<BoundMethod<?, ?>> list = new ArrayList<>(methods.size());
        for (ServerMethod<?, ?> m : methods) {
            list.add(m.bound());
        }
        return list;
    }

    /**
     * The service's protobuf descriptor, or null when the binding gave none (generated code gives it unless the
     * file is compiled for the lite runtime). gRPC server reflection describes the service from it.
     */
    public Descriptors.ServiceDescriptor descriptor() {
        return descriptor;
    }

    List<ServerMethod<?, ?>> serverMethods() {
        return methods;
    }

    /** Binds methods to their handlers. Not thread-safe. */
    public static final class Builder {
        private final String name;
        private final List<ServerMethod<?, ?>> methods = new ArrayList<>();
        private final Set<String> bound = new HashSet<>();
        private Descriptors.ServiceDescriptor descriptor;

        private Builder(String name) {
            this.name = name;
        }

        public <Q extends MessageLite, R extends MessageLite> Builder unary(
                RpcMethod<Q, R> method, Function<? super Q, ? extends Mono<? extends R>> handler) {
            return add(method, RpcMethod.Kind.UNARY, handler);
        }

        public <Q extends MessageLite> Builder fireAndForget(
                RpcMethod<Q, ?> method, Function<? super Q, ? extends Mono<Void>> handler) {
            return add(method, RpcMethod.Kind.FIRE_AND_FORGET, handler);
        }

        public <Q extends MessageLite, R extends MessageLite> Builder serverStreaming(
                RpcMethod<Q, R> method, Function<? super Q, ? extends Flux<? extends R>> handler) {
            return add(method, RpcMethod.Kind.SERVER_STREAMING, handler);
        }

        public <Q extends MessageLite, R extends MessageLite> Builder clientStreaming(
                RpcMethod<Q, R> method, Function<? super Flux<Q>, ? extends Mono<? extends R>> handler) {
            return add(method, RpcMethod.Kind.CLIENT_STREAMING, handler);
        }

        public <Q extends MessageLite, R extends MessageLite> Builder bidiStreaming(
                RpcMethod<Q, R> method, Function<? super Flux<Q>, ? extends Flux<? extends R>> handler) {
            return add(method, RpcMethod.Kind.BIDI_STREAMING, handler);
        }

        private <Q extends MessageLite, R extends MessageLite> Builder add(RpcMethod<Q, R> method,
                                                                          RpcMethod.Kind kind, Function<?, ?> handler) {
            if (method == null || handler == null) {
                throw new IllegalArgumentException("method and handler must not be null: method=" + method);
            }
            if (method.kind() != kind) {
                throw new IllegalArgumentException(method.fullName() + " is " + method.kind() + ", bound as " + kind);
            }
            if (!method.serviceName().equals(name)) {
                throw new IllegalArgumentException(method.fullName() + " is not a method of " + name);
            }
            if (!bound.add(method.fullName())) {
                throw new IllegalArgumentException(method.fullName() + " is bound twice");
            }
            methods.add(new ServerMethod<>(new BoundMethod<>(method, handler)));
            return this;
        }

        /**
         * The service's protobuf descriptor, for gRPC server reflection.
         *
         * @throws IllegalArgumentException if it describes another service
         */
        public Builder descriptor(Descriptors.ServiceDescriptor serviceDescriptor) {
            if (serviceDescriptor == null || !serviceDescriptor.getFullName().equals(name)) {
                throw new IllegalArgumentException("the descriptor of " + name + " expected, got "
                    + (serviceDescriptor == null ? null : serviceDescriptor.getFullName()));
            }
            this.descriptor = serviceDescriptor;
            return this;
        }

        public RpcService build() {
            return new RpcService(name, List.copyOf(methods), descriptor);
        }
    }
}
