package dev.sluice.core.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.Lease;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RequestType;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.StatsRecorder;
import dev.sluice.core.internal.lease.LeaseWait;
import dev.sluice.frame.CancelFrame;
import dev.sluice.frame.ErrorCodes;
import dev.sluice.frame.ErrorFrame;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.RequestFnfFrame;
import dev.sluice.frame.RequestResponseFrame;
import dev.sluice.frame.SetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.publisher.Sinks;

/**
 * Leases through the engine on virtual time: a fake transport on the test thread and a clock the test moves.
 */
class LeaseConnectionTest {

    private static final long MS = 1_000_000L;
    private static final long T0 = 1_000_000 * MS;

    private final AtomicLong now = new AtomicLong(T0);
    private final ConnectionConfig config = new ConnectionConfig(0, 1 << 20, 1000, Duration.ofSeconds(60),
        Duration.ofSeconds(300), now::get);
    private final FakeTransport transport = new FakeTransport();
    private RSocketConnection connection;

    @AfterEach
    void close() {
        if (connection != null) {
            connection.dispose();
        }
        transport.runPendingTasks();
        transport.releaseWritten();
    }

    // ---------------------------------------------------------------------------------------------------------
    // Requester side

    @Test
    void availabilityFollowsTheLeaseReceived() {
        connection = client(false);
        assertThat(connection.availability()).as("before the first lease").isEqualTo(0.0);
        transport.receive(lease(1000, 10));
        assertThat(connection.availability()).as("lease of 10").isEqualTo(1.0);
        connection.requester().requestResponse(Payload.create("x")).subscribe(Payload::release);
        assertThat(connection.availability()).as("after one request").isEqualTo(0.9);
        now.addAndGet(1000 * MS);
        assertThat(connection.availability()).as("after the ttl").isEqualTo(0.0);
    }

    @Test
    void requestsAreSentWithoutAPermitUnlessStrict() {
        connection = client(false);
        transport.takeWritten().forEach(ByteBuf::release);
        connection.requester().requestResponse(Payload.create("x")).subscribe(Payload::release, e -> { });
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.REQUEST_RESPONSE);
    }

    @Test
    void strictRequesterFailsLocallyWithoutAPermit() {
        connection = client(true);
        transport.takeWritten().forEach(ByteBuf::release);
        AtomicReference<Throwable> error = new AtomicReference<>();
        connection.requester().requestResponse(Payload.create("x")).subscribe(Payload::release, error::set);
        assertThat(error.get()).hasMessageStartingWith("lease_expired");
        assertThat(transport.takeWritten()).as("nothing sent").isEmpty();
    }

    @Test
    void gracefulCloseFromThePeerMakesItUnavailable() {
        connection = client(false);
        transport.receive(lease(1000, 10));
        assertThat(connection.availability()).isEqualTo(1.0);
        ByteBuf close = PooledByteBufAllocator.DEFAULT.buffer();
        ErrorFrame.encode(close, 0, ErrorCodes.CONNECTION_CLOSE, "bye");
        transport.receive(close);
        assertThat(connection.availability()).isEqualTo(0.0);
    }

    @Test
    void afterThePeersGracefulCloseAStreamThatNeverFinishesFailsWhenTheDrainRunsOut() {
        ConnectionConfig shortDrain = new ConnectionConfig(0, 1 << 20, 1000, Duration.ofSeconds(60),
            Duration.ofSeconds(300), now::get, Duration.ofMillis(250));
        transport.freezeTime();
        ByteBuf setup = PooledByteBufAllocator.DEFAULT.buffer();
        SetupFrame.encode(setup, false, 60_000, 300_000, null, "application/binary", "application/binary", null,
            null);
        connection = RSocketConnection.client(transport, shortDrain, setup, c -> new RSocket() { },
            (rtt, scheduler) -> Leases.none(), false, LeaseWait.NONE);
        AtomicReference<Throwable> error = new AtomicReference<>();
        connection.requester().requestResponse(Payload.create("x")).subscribe(Payload::release, error::set);
        ByteBuf close = PooledByteBufAllocator.DEFAULT.buffer();
        ErrorFrame.encode(close, 0, ErrorCodes.CONNECTION_CLOSE, "bye");
        transport.receive(close);

        transport.advanceTimeBy(249, TimeUnit.MILLISECONDS);
        assertThat(error.get()).as("the stream may still finish within the drain").isNull();
        transport.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        assertThat(error.get()).isInstanceOf(ConnectionClosedException.class)
            .hasMessage("the peer closed gracefully and 1 stream(s) did not finish within 250 ms");
    }

    // ---------------------------------------------------------------------------------------------------------
    // Responder side

    @Test
    void responderEnforcesTheLeaseBeforeTheHandlerAndReportsStats() {
        Sinks.Many<Lease> leases = Sinks.many().unicast().onBackpressureBuffer();
        RecordingStats stats = new RecordingStats();
        AtomicInteger invoked = new AtomicInteger();
        List<Sinks.One<Payload>> pending = new ArrayList<>();
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                invoked.incrementAndGet();
                p.release();
                Sinks.One<Payload> answer = Sinks.one();
                pending.add(answer);
                return answer.asMono();
            }
        };
        connection = server(handler, Leases.of(stats, s -> leases.asFlux()));

        transport.receive(requestResponse(1));
        assertRejected(transport.takeWritten(), 1, "lease_expired");

        leases.tryEmitNext(Lease.of(Duration.ofSeconds(1), 2));
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.LEASE);

        transport.receive(requestResponse(3));
        now.addAndGet(7 * MS);
        pending.get(0).tryEmitValue(Payload.create("ok"));
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.PAYLOAD);

        transport.receive(requestResponse(5));
        transport.receive(requestResponse(7));
        assertRejected(transport.takeWritten(), 7, "lease_exhausted");

        // A new lease while stream 5 is in flight: stream 5 still completes, new permits apply.
        leases.tryEmitNext(Lease.of(Duration.ofSeconds(1), 1));
        transport.takeWritten().forEach(ByteBuf::release);
        transport.receive(requestResponse(9));
        pending.get(1).tryEmitValue(Payload.create("late"));
        pending.get(2).tryEmitValue(Payload.create("new"));
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.PAYLOAD, FrameType.PAYLOAD);

        now.addAndGet(1000 * MS);
        transport.receive(requestResponse(11));
        assertRejected(transport.takeWritten(), 11, "lease_expired");

        assertThat(invoked.get()).as("handler invocations = accepted").isEqualTo(3);
        assertThat(stats.events).containsExactly(
            "start REQUEST_RESPONSE", "first ON_ERROR 0ms rejected", "end ON_ERROR",
            "start REQUEST_RESPONSE", "first ON_NEXT 7ms", "end ON_COMPLETE",
            "start REQUEST_RESPONSE",
            "start REQUEST_RESPONSE", "first ON_ERROR 0ms rejected", "end ON_ERROR",
            "start REQUEST_RESPONSE", "first ON_NEXT 0ms", "end ON_COMPLETE",
            "first ON_NEXT 0ms", "end ON_COMPLETE",
            "start REQUEST_RESPONSE", "first ON_ERROR 0ms rejected", "end ON_ERROR");
    }

    @Test
    void fireAndForgetOverTheLeaseIsDroppedAndCounted() {
        RecordingStats stats = new RecordingStats();
        AtomicInteger invoked = new AtomicInteger();
        RSocket handler = new RSocket() {
            @Override
            public Mono<Void> fireAndForget(Payload p) {
                invoked.incrementAndGet();
                p.release();
                return Mono.empty();
            }
        };
        Sinks.Many<Lease> leases = Sinks.many().unicast().onBackpressureBuffer();
        connection = server(handler, Leases.of(stats, s -> leases.asFlux()));
        leases.tryEmitNext(Lease.of(Duration.ofSeconds(1), 1));
        transport.takeWritten().forEach(ByteBuf::release);
        transport.receive(fireAndForget(1));
        transport.receive(fireAndForget(3));
        assertThat(transport.takeWritten()).as("no ERROR for fire-and-forget").isEmpty();
        assertThat(invoked.get()).isEqualTo(1);
        assertThat(stats.events).containsExactly(
            "start FIRE_AND_FORGET", "first ON_COMPLETE 0ms", "end ON_COMPLETE",
            "start FIRE_AND_FORGET", "first ON_ERROR 0ms rejected", "end ON_ERROR");
    }

    @Test
    void aFragmentedRequestCancelledMidWayStillEndsInTheStats() {
        Sinks.Many<Lease> leases = Sinks.many().unicast().onBackpressureBuffer();
        RecordingStats stats = new RecordingStats();
        AtomicInteger invoked = new AtomicInteger();
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                invoked.incrementAndGet();
                return Mono.just(p);
            }
        };
        connection = server(handler, Leases.of(stats, s -> leases.asFlux()));
        leases.tryEmitNext(Lease.of(Duration.ofSeconds(1), 5));
        transport.takeWritten().forEach(ByteBuf::release);
        ByteBuf first = PooledByteBufAllocator.DEFAULT.buffer();
        ByteBuf data = ByteBufUtil.writeUtf8(PooledByteBufAllocator.DEFAULT, "x".repeat(100));
        RequestResponseFrame.encode(first, 1, true, null, data);
        data.release();
        transport.receive(first);
        ByteBuf cancel = PooledByteBufAllocator.DEFAULT.buffer();
        CancelFrame.encode(cancel, 1);
        transport.receive(cancel);
        assertThat(invoked.get()).isZero();
        assertThat(stats.events).containsExactly("start REQUEST_RESPONSE", "first CANCEL 0ms", "end CANCEL");
    }

    @Test
    void zeroValuedLeaseStopsEverything() {
        Sinks.Many<Lease> leases = Sinks.many().unicast().onBackpressureBuffer();
        connection = server(new RSocket() { }, Leases.of(leases.asFlux()));
        leases.tryEmitNext(Lease.of(Duration.ofSeconds(1), 0));
        transport.takeWritten().forEach(ByteBuf::release);
        transport.receive(requestResponse(1));
        assertRejected(transport.takeWritten(), 1, "lease_exhausted");
    }

    // ---------------------------------------------------------------------------------------------------------

    /** A leasing client whose requests do not wait for a permit (see {@link LeaseWaitTest} for waiting). */
    private RSocketConnection client(boolean strict) {
        return LeaseTestFrames.leasingClient(transport, config, strict, LeaseWait.NONE);
    }

    private RSocketConnection server(RSocket handler, Leases leases) {
        RSocketConnection c = RSocketConnection.server(transport, config,
            new ServerSetup(SocketAcceptor.with(handler), scheduler -> leases), Duration.ofSeconds(10));
        ByteBuf setup = PooledByteBufAllocator.DEFAULT.buffer();
        SetupFrame.encode(setup, true, 60_000, 300_000, null, "application/binary", "application/binary", null,
            null);
        transport.receive(setup);
        return c;
    }

    private static ByteBuf lease(int ttlMillis, int n) {
        return LeaseTestFrames.lease(ttlMillis, n);
    }

    private static ByteBuf requestResponse(int streamId) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer();
        ByteBuf data = ByteBufUtil.writeUtf8(PooledByteBufAllocator.DEFAULT, "q");
        RequestResponseFrame.encode(b, streamId, false, null, data);
        data.release();
        return b;
    }

    private static ByteBuf fireAndForget(int streamId) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer();
        ByteBuf data = ByteBufUtil.writeUtf8(PooledByteBufAllocator.DEFAULT, "f");
        RequestFnfFrame.encode(b, streamId, false, null, data);
        data.release();
        return b;
    }

    private static void assertRejected(List<ByteBuf> frames, int streamId, String message) {
        try {
            assertThat(frames).hasSize(1);
            ByteBuf f = frames.get(0);
            assertThat(FrameHeader.frameType(f, 0)).isEqualTo(FrameType.ERROR);
            assertThat(FrameHeader.streamId(f, 0)).isEqualTo(streamId);
            assertThat(ErrorFrame.errorCode(f, 0)).isEqualTo(ErrorCodes.REJECTED);
            assertThat(ErrorFrame.message(f, 0, f.readableBytes())).isEqualTo(message);
        } finally {
            frames.forEach(ByteBuf::release);
        }
    }

    private static List<Integer> types(List<ByteBuf> frames) {
        return LeaseTestFrames.types(frames);
    }

    /** Records stats callbacks as readable lines. */
    private static final class RecordingStats implements StatsRecorder<String> {
        final List<String> events = new ArrayList<>();

        @Override
        public String onRequestStarted(RequestType type, ByteBuf metadata) {
            events.add("start " + type);
            return ByteBufUtil.hexDump(metadata);
        }

        @Override
        public void onResponseStarted(RequestType type, String call, SignalType firstSignal, long latencyNanos,
                                      boolean rejected) {
            events.add("first " + firstSignal.name() + " " + latencyNanos / MS + "ms" + (rejected ? " rejected" : ""));
        }

        @Override
        public void onResponseTerminated(RequestType type, String call, SignalType lastSignal) {
            events.add("end " + lastSignal.name());
        }
    }
}
