package dev.sluice.rpc.grpc;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A grpc-java server on loopback serving the given services, and a plaintext channel to it: what the tests call the
 * bridge through. Both sides' HTTP/2 flow-control windows are fixed (no automatic tuning), so that how far one side
 * can run ahead of a reader that stopped is a known number of bytes.
 */
final class GrpcLoopback implements AutoCloseable {

    static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Both sides' HTTP/2 flow-control window, bytes. */
    static final int WINDOW = 64 * 1024;

    final Server server;
    final ManagedChannel channel;

    GrpcLoopback(ServerServiceDefinition... services) {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .flowControlWindow(WINDOW);
        for (ServerServiceDefinition s : services) {
            builder.addService(s);
        }
        try {
            server = builder.build().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort())
            .usePlaintext()
            .flowControlWindow(WINDOW)
            .build();
    }

    /** The count once it stopped moving for ten looks 20 ms apart (bounded by {@link #TIMEOUT}). */
    static long awaitSteady(AtomicLong count) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        long last = -1;
        int steady = 0;
        while (steady < 10 && System.nanoTime() < deadline) {
            long now = count.get();
            steady = now == last ? steady + 1 : 0;
            last = now;
            Thread.sleep(20);
        }
        return last;
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        server.shutdownNow().awaitTermination(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
}
