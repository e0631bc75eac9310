package dev.sluice.bench.throughput.peers;

import dev.sluice.bench.throughput.internal.Payloads;
import dev.sluice.bench.throughput.rpc.RpcServer;
import dev.sluice.bench.throughput.rpc.proto.Blob;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.protobuf.ProtoUtils;
import java.util.function.IntFunction;

/**
 * What one gRPC cell exchanges: its service's methods and a message body of a given size. {@link #BYTES} is the
 * raw-bytes service of the transport cells; {@link #PROTO} the RPC cells' {@code sluice.bench.v1.Throughput} over
 * the protobuf {@code Blob}, with grpc-protobuf's marshaller, as code from protoc-gen-grpc-java would declare it.
 *
 * @param <T> the message type
 */
record GrpcMessages<T>(String service, MethodDescriptor<T, T> unary, MethodDescriptor<T, T> stream,
                       IntFunction<T> body) {

    static final GrpcMessages<byte[]> BYTES = new GrpcMessages<>(GrpcService.NAME, GrpcService.UNARY,
        GrpcService.STREAM, Payloads::bytes);

    static final GrpcMessages<Blob> PROTO = proto("sluice.bench.v1.Throughput");

    private static GrpcMessages<Blob> proto(String service) {
        MethodDescriptor.Marshaller<Blob> marshaller = ProtoUtils.marshaller(Blob.getDefaultInstance());
        return new GrpcMessages<>(service,
            method(service, "Unary", MethodType.UNARY, marshaller),
            method(service, "Stream", MethodType.SERVER_STREAMING, marshaller),
            RpcServer::blob);
    }

    private static <T> MethodDescriptor<T, T> method(String service, String name, MethodType type,
                                                     MethodDescriptor.Marshaller<T> marshaller) {
        return MethodDescriptor.<T, T>newBuilder()
            .setType(type)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(service, name))
            .setRequestMarshaller(marshaller)
            .setResponseMarshaller(marshaller)
            .build();
    }
}
