package dev.sluice.bench.throughput.peers;

import dev.sluice.bench.throughput.internal.BenchMain;

/** The grpc-java client of the RPC cells: {@link GrpcClient} calling {@code sluice.bench.v1.Throughput}. */
public final class GrpcProtoClient {

    private GrpcProtoClient() {
    }

    public static void main(String[] args) {
        BenchMain.client(args, (options, meter, latency, report) ->
            GrpcClient.start(options, meter, latency, report, GrpcMessages.PROTO), GrpcServer.TRANSPORTS);
    }
}
