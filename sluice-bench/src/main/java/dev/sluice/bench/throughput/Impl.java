package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.peers.GrpcClient;
import dev.sluice.bench.throughput.peers.GrpcProtoClient;
import dev.sluice.bench.throughput.peers.GrpcProtoServer;
import dev.sluice.bench.throughput.peers.GrpcServer;
import dev.sluice.bench.throughput.peers.RSocketJavaClient;
import dev.sluice.bench.throughput.peers.RSocketJavaServer;
import dev.sluice.bench.throughput.rpc.RpcClient;
import dev.sluice.bench.throughput.rpc.RpcServer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/** The implementations a throughput run compares: their server and client mains and what they implement. */
enum Impl {
    SLUICE("sluice", "Sluice", SluiceServer.class, SluiceClient.class, EnumSet.allOf(Interaction.class)),
    SLUICE_METRICS("sluice-metrics", "Sluice + metrics", SluiceMetricsServer.class, SluiceClient.class,
        EnumSet.allOf(Interaction.class)),
    RSOCKET_JAVA("rsocket-java", "rsocket-java", RSocketJavaServer.class, RSocketJavaClient.class,
        EnumSet.allOf(Interaction.class)),
    GRPC_JAVA("grpc-java", "grpc-java", GrpcServer.class, GrpcClient.class,
        EnumSet.of(Interaction.STREAM, Interaction.RESPONSE)),
    SLUICE_RPC("sluice-rpc", "Sluice RPC", RpcServer.class, RpcClient.class,
        EnumSet.of(Interaction.STREAM, Interaction.RESPONSE)),
    GRPC_PROTO("grpc-proto", "grpc-java (protobuf)", GrpcProtoServer.class, GrpcProtoClient.class,
        EnumSet.of(Interaction.STREAM, Interaction.RESPONSE)),
    NETTY_FLOOR("netty-floor", "raw-Netty floor", NettyFloorServer.class, NettyFloorClient.class,
        EnumSet.of(Interaction.STREAM, Interaction.RESPONSE));

    private final String option;
    private final String label;
    private final Class<?> server;
    private final Class<?> client;
    private final Set<Interaction> interactions;

    Impl(String option, String label, Class<?> server, Class<?> client, Set<Interaction> interactions) {
        this.option = option;
        this.label = label;
        this.server = server;
        this.client = client;
        this.interactions = interactions;
    }

    String option() {
        return option;
    }

    String label() {
        return label;
    }

    String serverMain() {
        return server.getName();
    }

    String clientMain() {
        return client.getName();
    }

    boolean implementsInteraction(Interaction i) {
        return interactions.contains(i);
    }

    static Impl parse(String option) {
        for (Impl i : values()) {
            if (i.option.equals(option)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown implementation '" + option + "': expected one of "
            + Arrays.stream(values()).map(Impl::option).collect(Collectors.joining(", ")));
    }
}
