package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.peers.GrpcClient;
import dev.sluice.bench.throughput.peers.GrpcProtoClient;
import dev.sluice.bench.throughput.peers.GrpcProtoServer;
import dev.sluice.bench.throughput.peers.GrpcServer;
import dev.sluice.bench.throughput.peers.RSocketJavaClient;
import dev.sluice.bench.throughput.peers.RSocketJavaServer;
import dev.sluice.bench.throughput.rpc.GrpcBridgeServer;
import dev.sluice.bench.throughput.rpc.RpcClient;
import dev.sluice.bench.throughput.rpc.RpcServer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The implementations a throughput run compares: their server and client mains, the interactions they implement and
 * the transports they run over (each main refuses the others too).
 */
enum Impl {
    SLUICE("sluice", "Sluice", SluiceServer.class, SluiceClient.class, EnumSet.allOf(Interaction.class),
        SluiceTransports.ALL),
    SLUICE_METRICS("sluice-metrics", "Sluice + metrics", SluiceMetricsServer.class, SluiceClient.class,
        EnumSet.allOf(Interaction.class), SluiceTransports.ALL),
    RSOCKET_JAVA("rsocket-java", "rsocket-java", RSocketJavaServer.class, RSocketJavaClient.class,
        EnumSet.allOf(Interaction.class), RSocketJavaServer.TRANSPORTS),
    GRPC_JAVA("grpc-java", "grpc-java", GrpcServer.class, GrpcClient.class,
        EnumSet.of(Interaction.STREAM, Interaction.RESPONSE), GrpcServer.TRANSPORTS),
    SLUICE_RPC("sluice-rpc", "Sluice RPC", RpcServer.class, RpcClient.class,
        EnumSet.of(Interaction.STREAM, Interaction.RESPONSE), SluiceTransports.ALL),
    GRPC_PROTO("grpc-proto", "grpc-java (protobuf)", GrpcProtoServer.class, GrpcProtoClient.class,
        EnumSet.of(Interaction.STREAM, Interaction.RESPONSE), GrpcServer.TRANSPORTS),
    GRPC_BRIDGE("grpc-bridge", "grpc-java (Sluice bridge)", GrpcBridgeServer.class, GrpcProtoClient.class,
        EnumSet.of(Interaction.STREAM, Interaction.RESPONSE), GrpcServer.TRANSPORTS),
    NETTY_FLOOR("netty-floor", "raw-Netty floor", NettyFloorServer.class, NettyFloorClient.class,
        EnumSet.of(Interaction.STREAM, Interaction.RESPONSE), EnumSet.of(Transport.TCP));

    private final String option;
    private final String label;
    private final Class<?> server;
    private final Class<?> client;
    private final Set<Interaction> interactions;
    private final Set<Transport> transports;

    Impl(String option, String label, Class<?> server, Class<?> client, Set<Interaction> interactions,
         Set<Transport> transports) {
        this.option = option;
        this.label = label;
        this.server = server;
        this.client = client;
        this.interactions = interactions;
        this.transports = transports;
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

    boolean runsOver(Transport t) {
        return transports.contains(t);
    }

    /** The transports its mains run over, in declaration order. */
    Set<Transport> transports() {
        return transports;
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
