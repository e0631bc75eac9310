package dev.sluice.cli;

import dev.sluice.rpc.RpcService;
import dev.sluice.rpc.grpc.GrpcBridge;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * The gRPC side of a serving command ({@code echo-server --grpc-address}): grpc-java's own server (grpc-netty-shaded,
 * plaintext) serving an RPC implementation through {@link GrpcBridge}, with server reflection (v1 and v1alpha, so
 * {@code grpcurl list} works) and the standard health service reporting the service and the server SERVING.
 * Counts the calls it started and the ones the client cancelled (a deadline, a cancel, a lost connection).
 */
final class GrpcEndpoint implements AutoCloseable {

    /**
     * grpc-java logs a warning with a stack trace for each stream a client cancels while replies were queued for it
     * (a deadline on a long Repeat): expected here, so that one message is dropped; every other one still shows.
     */
    private static final Logger NETTY_SERVER_LOG = quietOnCancelledWrites(
        Logger.getLogger("io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler"));
    private static final String CANCELLED_WRITE = "Stream closed before write could take place";

    private final Server server;
    private final HealthStatusManager health;
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong cancelled = new AtomicLong();

    private GrpcEndpoint(HostPort address, RpcService service) throws IOException {
        health = new HealthStatusManager();
        health.setStatus("", ServingStatus.SERVING);
        health.setStatus(service.name(), ServingStatus.SERVING);
        server = NettyServerBuilder.forAddress(address.toAddress())
            .addService(ServerInterceptors.intercept(GrpcBridge.service(service), new CallCounter()))
            .addService(ProtoReflectionServiceV1.newInstance())
            .addService(deprecatedReflection())
            .addService(health.getHealthService())
            .build()
            .start();
    }

    private static Logger quietOnCancelledWrites(Logger logger) {
        logger.setFilter(record -> record.getThrown() == null
            || !CANCELLED_WRITE.equals(record.getThrown().getMessage()));
        return logger;
    }

    /** grpcurl and many tools still ask the v1alpha reflection service first. */
    @SuppressWarnings("deprecation")
    private static io.grpc.BindableService deprecatedReflection() {
        return ProtoReflectionService.newInstance();
    }

    /** Starts serving {@code service} on {@code address} (port 0 picks a free one). */
    static GrpcEndpoint start(HostPort address, RpcService service) throws IOException {
        return new GrpcEndpoint(address, service);
    }

    int port() {
        return server.getPort();
    }

    /** {@code grpc calls=N cancelled=M}, for the per-second log line. */
    String counters() {
        return "grpc calls=" + calls.get() + " cancelled=" + cancelled.get();
    }

    long cancelled() {
        return cancelled.get();
    }

    /** Reports NOT_SERVING, stops taking calls and gives the ones in flight up to {@code timeout}. */
    void drain(Duration timeout) throws InterruptedException {
        health.enterTerminalState();
        server.shutdown();
        if (!server.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            server.shutdownNow();
        }
    }

    @Override
    public void close() {
        health.enterTerminalState();
        server.shutdownNow();
    }

    private final class CallCounter implements ServerInterceptor {
        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                          ServerCallHandler<Q, R> next) {
            calls.incrementAndGet();
            ServerCall.Listener<Q> listener = next.startCall(call, headers);
            return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
                @Override
                public void onCancel() {
                    cancelled.incrementAndGet();
                    super.onCancel();
                }
            };
        }
    }
}
