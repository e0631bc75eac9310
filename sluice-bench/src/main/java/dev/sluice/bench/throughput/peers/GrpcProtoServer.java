package dev.sluice.bench.throughput.peers;

import dev.sluice.bench.throughput.internal.BenchMain;

/**
 * The grpc-java server of the RPC cells: {@link GrpcServer}'s configuration serving
 * {@code sluice.bench.v1.Throughput} over protobuf messages, the service {@code RpcServer} serves with Sluice RPC.
 */
public final class GrpcProtoServer {

    private GrpcProtoServer() {
    }

    public static void main(String[] args) {
        BenchMain.server(args, options -> GrpcServer.start(options, GrpcMessages.PROTO),
            GrpcServer.TRANSPORTS);
    }
}
