package dev.sluice.rpc.grpc;

import com.google.protobuf.MessageLite;
import dev.sluice.rpc.BoundMethod;
import dev.sluice.rpc.RpcMethod;
import dev.sluice.rpc.RpcService;
import dev.sluice.rpc.grpc.internal.MethodSchema;
import dev.sluice.rpc.grpc.internal.ProtoMarshallers;
import dev.sluice.rpc.grpc.internal.ServiceSchema;
import dev.sluice.rpc.grpc.internal.SingleRequestHandler;
import dev.sluice.rpc.grpc.internal.StreamingRequestHandler;
import io.grpc.BindableService;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Serves a Sluice RPC service to gRPC clients: {@link #service(RpcService)} turns the same bound implementation an
 * {@code RpcRouter} serves over RSocket into a grpc-java {@link ServerServiceDefinition}, which any grpc-java server
 * (grpc-netty, grpc-netty-shaded, in-process) serves with its own HTTP/2 engine:
 *
 * <pre>{@code
 * RpcService echo = EchoRpc.bind(new MyEcho());
 * RSocketServer.create(RpcRouter.of(echo).acceptor()).bind(TcpServerTransport.create("0.0.0.0", 7000)).block();
 * Grpc.newServerBuilderForPort(9090, InsecureServerCredentials.create())
 *     .addService(GrpcBridge.service(echo)).build().start();
 * }</pre>
 *
 * <p>What a gRPC client sees:
 * <ul>
 *   <li>all four method kinds, under the same full names; a fire-and-forget method is the unary method its
 *       {@code .proto} declares, answered with {@code google.protobuf.Empty} once the handler completes;</li>
 *   <li>backpressure both ways: responses are taken from the implementation only while the call
 *       {@linkplain io.grpc.ServerCall#isReady() is ready} (at most 32 ahead), and requests are asked of the
 *       client ({@linkplain io.grpc.ServerCall#request(int) request(n)}) as the implementation's subscriber asks for
 *       them;</li>
 *   <li>an {@code RpcException}'s status and description as the gRPC {@code Status}; any other failure as
 *       {@code UNKNOWN} with its message;</li>
 *   <li>a deadline or a cancellation by the client cancels the implementation's publisher;</li>
 *   <li>request headers as the call's {@code RpcMetadata} ({@code RpcMetadata.current()}): one entry per value,
 *       named by the header ({@code x-trace-id}), the value's ASCII text, or its bytes for a {@code -bin} header.
 *       gRPC's own headers ({@code grpc-*}, {@code content-type}, {@code user-agent}, {@code te}) are left out.</li>
 * </ul>
 * The service carries its protobuf descriptor (generated bindings give it), so gRPC server reflection
 * ({@code ProtoReflectionServiceV1}) can describe it.
 */
public final class GrpcBridge {

    private GrpcBridge() {
    }

    /**
     * The gRPC definition of {@code service}; calls go to its bound handlers. Build it once and add it to a server.
     *
     * @throws IllegalArgumentException if {@code service} is null
     */
    public static ServerServiceDefinition service(RpcService service) {
        if (service == null) {
            throw new IllegalArgumentException("service must not be null");
        }
        ServiceDescriptor.Builder descriptor = ServiceDescriptor.newBuilder(service.name());
        if (service.descriptor() != null) {
            descriptor.setSchemaDescriptor(new ServiceSchema(service.descriptor()));
        }
        List<BoundMethod<?, ?>> bound = service.boundMethods();
        List<MethodDescriptor<?, ?>> methods = new ArrayList<>(bound.size());
        for (BoundMethod<?, ?> m : bound) {
            MethodDescriptor<?, ?> md = descriptor(m.method(), service);
            methods.add(md);
            descriptor.addMethod(md);
        }
        ServerServiceDefinition.Builder definition = ServerServiceDefinition.builder(descriptor.build());
        for (int i = 0; i < methods.size(); i++) {
            add(definition, methods.get(i), bound.get(i));
        }
        return definition.build();
    }

    /** {@link #service(RpcService)} as a {@link BindableService}, for APIs that take one. */
    public static BindableService bindable(RpcService service) {
        ServerServiceDefinition definition = service(service);
        return () -> definition;
    }

    @SuppressWarnings("unchecked")
    private static <Q extends MessageLite, R extends MessageLite> void add(ServerServiceDefinition.Builder definition,
                                                                         MethodDescriptor<?, ?> descriptor,
                                                                         BoundMethod<Q, R> bound) {
        MethodDescriptor<Q, R> md = (MethodDescriptor<Q, R>) descriptor;
        switch (bound.method().kind()) {
            case UNARY, FIRE_AND_FORGET, SERVER_STREAMING ->
                definition.addMethod(md, new SingleRequestHandler<>(bound));
            case CLIENT_STREAMING, BIDI_STREAMING -> definition.addMethod(md, new StreamingRequestHandler<>(bound));
            default -> throw new IllegalStateException("unknown kind " + bound.method().kind());
        }
    }

    private static <Q extends MessageLite, R extends MessageLite> MethodDescriptor<Q, R> descriptor(
            RpcMethod<Q, R> method, RpcService service) {
        MethodDescriptor.Builder<Q, R> builder = MethodDescriptor.<Q, R>newBuilder()
            .setType(type(method.kind()))
            .setFullMethodName(method.fullName())
            .setRequestMarshaller(ProtoMarshallers.of(method.requestParser()))
            .setResponseMarshaller(ProtoMarshallers.of(method.responseParser()));
        if (service.descriptor() != null) {
            String name = method.fullName().substring(method.fullName().indexOf('/') + 1);
            builder.setSchemaDescriptor(new MethodSchema(service.descriptor(), name));
        }
        return builder.build();
    }

    private static MethodType type(RpcMethod.Kind kind) {
        return switch (kind) {
            case UNARY, FIRE_AND_FORGET -> MethodType.UNARY;
            case SERVER_STREAMING -> MethodType.SERVER_STREAMING;
            case CLIENT_STREAMING -> MethodType.CLIENT_STREAMING;
            case BIDI_STREAMING -> MethodType.BIDI_STREAMING;
        };
    }
}
