package dev.sluice.rpc.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.sluice.rpc.echo.v1.EchoGrpc;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A slow gRPC client holds the implementation back: a server-streaming call of ten million replies, read a few
 * hundred at a time, never has the implementation more than a bounded number of replies ahead of the reader.
 *
 * <p>The bound: the client's HTTP/2 window ({@link GrpcLoopback#WINDOW}, 64 KiB) plus grpc-java's 32 KiB
 * ready threshold on the server, in replies, plus the bridge's {@link dev.sluice.rpc.grpc.internal} batch of 32 and
 * one reply in hand: with 1 KiB replies, {@value #BOUND}. The server's heap holds at most that many replies
 * (about 160 KiB) for the call, whatever the stream's length; the heap in use after a collection, measured before
 * the first read and after the last pause, grows by less than 32 MiB (the whole stream is 10 GB).
 */
class SlowClientTest {

    private static final long TEN_MILLION = 10_000_000;
    private static final int REPLY_DATA = 1024;
    /** (64 KiB + 32 KiB) / 1,024 B + 32 + 1, rounded up for the replies' few bytes of framing. */
    private static final long BOUND = 130;
    private static final long HEAP_GROWTH_BOUND = 32L << 20;
    private static final int BURSTS = 3;
    private static final int BURST = 300;

    private final ObservedEcho echo = new ObservedEcho();
    private GrpcLoopback loopback;

    @BeforeEach
    void start() {
        loopback = new GrpcLoopback(GrpcBridge.service(EchoRpc.bind(echo)));
    }

    @AfterEach
    void stop() throws InterruptedException {
        loopback.close();
    }

    @Test
    void tenMillionRepliesToAReaderThatPausesStayWithinTheBound() throws InterruptedException {
        ClientCall<EchoRequest, EchoReply> call = loopback.channel.newCall(EchoGrpc.getRepeatMethod(),
            CallOptions.DEFAULT);
        AtomicLong received = new AtomicLong();
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onMessage(EchoReply message) {
                received.incrementAndGet();
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
            }
        }, new Metadata());
        call.sendMessage(EchoRequest.newBuilder().setText("slow").setCount((int) TEN_MILLION)
            .setData(ByteString.copyFrom(new byte[REPLY_DATA])).build());
        call.halfClose();

        long heapBefore = heapAfterGc();
        long read = 0;
        for (int burst = 0; burst < BURSTS; burst++) {
            call.request(BURST);
            read += BURST;
            awaitReceived(received, read);
            long ahead = GrpcLoopback.awaitSteady(echo.repeated) - read;
            assertThat(ahead).as("replies made ahead of the reader after %d read", read)
                .isBetween(0L, BOUND);
        }
        // The same bound read in the heap: the stream in full would be 10 GB; what is held for it is ~160 KiB, so
        // 32 MiB leaves room for everything else the JVM allocates meanwhile.
        assertThat(heapAfterGc() - heapBefore).as("heap grown while the reader paused, bytes")
            .isLessThan(HEAP_GROWTH_BOUND);
        call.cancel("done reading", null);
        assertThat(echo.cancelled.await(GrpcLoopback.TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(echo.repeated.get()).isLessThan(TEN_MILLION);
    }

    /** The heap in use after a full collection. */
    private static long heapAfterGc() {
        System.gc();
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    private static void awaitReceived(AtomicLong received, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + GrpcLoopback.TIMEOUT.toNanos();
        while (received.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(received.get()).isEqualTo(expected);
    }
}
