package dev.sluice.bench.throughput.peers;

import dev.sluice.bench.throughput.Transport;
import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.ClientReport;
import dev.sluice.bench.throughput.internal.Latency;
import dev.sluice.bench.throughput.internal.Meter;
import dev.sluice.bench.throughput.internal.Pacer;
import dev.sluice.bench.throughput.internal.PeerTls;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;

/**
 * The grpc-java benchmark client: one channel (one HTTP/2 connection) configured as {@link GrpcServer}. Streams
 * use the stub's default flow control (the next message is requested as each one is delivered); unary calls run
 * in a closed loop of {@code --window} calls in flight, each completion starting the next, as grpc-java's
 * {@code AsyncClient} does, or, after that loop's warm-up, paced at {@code --rate}. Plaintext, or TLS with
 * {@code --transport tls} (as {@link GrpcServer} serves it).
 */
public final class GrpcClient {

    private GrpcClient() {
    }

    public static void main(String[] args) {
        BenchMain.client(args, (options, meter, latency, report) ->
            start(options, meter, latency, report, GrpcMessages.BYTES), GrpcServer.TRANSPORTS);
    }

    static <T> void start(ChildOptions o, Meter meter, Latency latency, ClientReport report,
                          GrpcMessages<T> messages) throws SSLException {
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group = GrpcServer.group(epoll, "grpc-client");
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(o.host(), o.port())
            .channelType(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .eventLoopGroup(group)
            .directExecutor()
            .flowControlWindow(GrpcService.FLOW_CONTROL_WINDOW);
        ManagedChannel channel = secure(builder, o).build();
        T request = messages.body().apply(o.size());
        switch (o.interaction()) {
            case STREAM -> ClientCalls.asyncServerStreamingCall(
                channel.newCall(messages.stream(), CallOptions.DEFAULT), request, new StreamCounter<>(meter, report));
            case RESPONSE -> {
                UnaryLoop<T> loop = new UnaryLoop<>(channel, messages.unary(), request, meter, report, latency);
                loop.startClosedLoop(o.window());
                if (o.paced()) {
                    new Pacer(o.rate(), o.maxInFlight(), System::nanoTime).start(loop, group.next(), report);
                }
            }
            default -> throw BenchMain.unsupported("grpc-java", o);
        }
    }

    /** {@code builder}, over TLS with {@code --transport tls}, plaintext otherwise. */
    static NettyChannelBuilder secure(NettyChannelBuilder builder, ChildOptions o) throws SSLException {
        if (o.transport() == Transport.TLS) {
            return builder.sslContext(GrpcSslContexts.configure(PeerTls.client(o), PeerTls.provider()).build());
        }
        return builder.usePlaintext();
    }

    private static final class StreamCounter<T> implements StreamObserver<T> {
        private final Meter meter;
        private final ClientReport report;

        StreamCounter(Meter meter, ClientReport report) {
            this.meter = meter;
            this.report = report;
        }

        @Override
        public void onNext(T value) {
            meter.increment();
        }

        @Override
        public void onError(Throwable t) {
            report.fail(t);
        }

        @Override
        public void onCompleted() {
            report.fail(new IllegalStateException("the stream completed, but the benchmark's streams are infinite"));
        }
    }

    /** Unary calls, closed loop or paced; see {@code RequestLoop}, its Reactor counterpart. Thread-safe. */
    private static final class UnaryLoop<T> implements Pacer.Sender {
        private final ManagedChannel channel;
        private final MethodDescriptor<T, T> method;
        private final T request;
        private final Meter meter;
        private final ClientReport report;
        private final Latency latency;
        private final AtomicInteger inFlight = new AtomicInteger();
        private volatile boolean closedLoop;

        UnaryLoop(ManagedChannel channel, MethodDescriptor<T, T> method, T request, Meter meter, ClientReport report,
                  Latency latency) {
            this.channel = channel;
            this.method = method;
            this.request = request;
            this.meter = meter;
            this.report = report;
            this.latency = latency;
        }

        void startClosedLoop(int calls) {
            closedLoop = true;
            for (int i = 0; i < calls; i++) {
                call(new Answer(false, 0));
            }
        }

        @Override
        public void stopClosedLoop() {
            closedLoop = false;
        }

        @Override
        public void send(long dueNanos) {
            inFlight.incrementAndGet();
            call(new Answer(true, dueNanos));
        }

        private void call(Answer answer) {
            ClientCalls.asyncUnaryCall(channel.newCall(method, CallOptions.DEFAULT), request, answer);
        }

        @Override
        public int inFlight() {
            return inFlight.get();
        }

        private final class Answer implements StreamObserver<T> {
            private final boolean paced;
            private final long dueNanos;

            Answer(boolean paced, long dueNanos) {
                this.paced = paced;
                this.dueNanos = dueNanos;
            }

            @Override
            public void onNext(T value) {
                if (paced) {
                    latency.record(dueNanos, System.nanoTime());
                }
                meter.increment();
            }

            @Override
            public void onError(Throwable t) {
                if (paced) {
                    inFlight.decrementAndGet();
                }
                report.fail(t);
            }

            @Override
            public void onCompleted() {
                if (paced) {
                    inFlight.decrementAndGet();
                } else if (closedLoop) {
                    call(new Answer(false, 0));
                }
            }
        }
    }
}
