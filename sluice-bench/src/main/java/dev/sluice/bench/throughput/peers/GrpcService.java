package dev.sluice.bench.throughput.peers;

import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;

/**
 * The benchmark's gRPC service, defined by hand: {@code sluice.bench.Throughput/Unary} (unary) and
 * {@code sluice.bench.Throughput/Stream} (server streaming), both carrying raw bytes ({@link BytesMarshaller}).
 * Also the grpc-java settings both sides share.
 */
final class GrpcService {

    static final String NAME = "sluice.bench.Throughput";

    /** The HTTP/2 flow-control window both sides use, in bytes: the published comparison's setting. */
    static final int FLOW_CONTROL_WINDOW = 1_000_000;

    static final MethodDescriptor<byte[], byte[]> UNARY = method(MethodType.UNARY, "Unary");

    static final MethodDescriptor<byte[], byte[]> STREAM = method(MethodType.SERVER_STREAMING, "Stream");

    private GrpcService() {
    }

    private static MethodDescriptor<byte[], byte[]> method(MethodType type, String name) {
        return MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(type)
            .setFullMethodName(MethodDescriptor.generateFullMethodName(NAME, name))
            .setRequestMarshaller(BytesMarshaller.INSTANCE)
            .setResponseMarshaller(BytesMarshaller.INSTANCE)
            .build();
    }
}
