package dev.sluice.bench.throughput.rpc;

import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.peers.GrpcServer;
import dev.sluice.bench.throughput.rpc.proto.ThroughputRpc;
import dev.sluice.rpc.grpc.GrpcBridge;

/**
 * The grpc-bridge cells' server: the Sluice RPC implementation of {@code sluice.bench.v1.Throughput} that
 * {@link RpcServer} serves over RSocket, served to grpc-java clients through {@link GrpcBridge} on grpc-java's own
 * server, in the configuration of the direct grpc-java cells ({@link GrpcServer}). What the bridge costs is this
 * cell against {@code grpc-proto}, the same service written directly on grpc-java, with the same client.
 */
public final class GrpcBridgeServer {

    private GrpcBridgeServer() {
    }

    public static void main(String[] args) {
        BenchMain.server(args, options -> GrpcServer.start(options,
            GrpcBridge.service(ThroughputRpc.bind(RpcServer.service(options.size())))), GrpcServer.TRANSPORTS);
    }
}
