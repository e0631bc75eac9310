package dev.sluice.bench.throughput.peers;

import dev.sluice.bench.throughput.Transport;
import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.PeerTls;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import javax.net.ssl.SSLException;

/**
 * The grpc-java benchmark server, in the configuration grpc-java's own benchmarks use for speed: plain (unshaded)
 * grpc-netty, epoll, one event loop, {@code directExecutor()} (handlers run on the event loop), plaintext, an
 * HTTP/2 flow-control window of 1,000,000 bytes. Unary answers one pre-built message; server streaming sends the
 * same message for as long as the call is ready ({@code isReady()}/{@code onReadyHandler}, grpc's flow control).
 * With {@code --transport tls}, TLS instead of plaintext: {@link GrpcSslContexts} (ALPN {@code h2}, HTTP/2's cipher
 * suites) over the context of {@link PeerTls}.
 */
public final class GrpcServer {

    /** What the grpc-java mains run over: HTTP/2 on TCP, plaintext or TLS. */
    public static final Set<Transport> TRANSPORTS =
        Collections.unmodifiableSet(EnumSet.of(Transport.TCP, Transport.TLS));

    private GrpcServer() {
    }

    public static void main(String[] args) {
        BenchMain.server(args, options -> start(options, GrpcMessages.BYTES), TRANSPORTS);
    }

    static <T> int start(ChildOptions options, GrpcMessages<T> messages) throws Exception {
        T answer = messages.body().apply(options.size());
        ServerServiceDefinition service = ServerServiceDefinition.builder(messages.service())
            .addMethod(messages.unary(), ServerCalls.asyncUnaryCall((request, observer) -> {
                observer.onNext(answer);
                observer.onCompleted();
            }))
            .addMethod(messages.stream(), ServerCalls.asyncServerStreamingCall((request, observer) ->
                stream(answer, observer)))
            .build();
        return start(options, service);
    }

    /** Serves {@code service} in this configuration; the port it listens on. */
    public static int start(ChildOptions options, ServerServiceDefinition service) throws Exception {
        boolean epoll = Epoll.isAvailable();
        Class<? extends ServerChannel> channel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(options.host(),
                options.port()))
            .channelType(channel)
            .bossEventLoopGroup(group(epoll, "grpc-boss"))
            .workerEventLoopGroup(group(epoll, "grpc-worker"))
            .directExecutor()
            .flowControlWindow(GrpcService.FLOW_CONTROL_WINDOW)
            .addService(service);
        Server server = secure(builder, options).build().start();
        return server.getPort();
    }

    /** {@code builder}, serving TLS with {@code --transport tls} (plaintext otherwise, grpc-netty's default). */
    static NettyServerBuilder secure(NettyServerBuilder builder, ChildOptions options) throws SSLException {
        if (options.transport() == Transport.TLS) {
            builder.sslContext(GrpcSslContexts.configure(PeerTls.server(options), PeerTls.provider()).build());
        }
        return builder;
    }

    private static <T> void stream(T answer, StreamObserver<T> observer) {
        ServerCallStreamObserver<T> call = (ServerCallStreamObserver<T>) observer;
        // Without a cancel handler, onNext after the client goes away throws; with one it is a no-op.
        call.setOnCancelHandler(() -> { });
        call.setOnReadyHandler(() -> {
            while (call.isReady() && !call.isCancelled()) {
                call.onNext(answer);
            }
        });
    }

    static EventLoopGroup group(boolean epoll, String name) {
        DefaultThreadFactory threads = new DefaultThreadFactory(name, true);
        return epoll ? new EpollEventLoopGroup(1, threads) : new NioEventLoopGroup(1, threads);
    }
}
