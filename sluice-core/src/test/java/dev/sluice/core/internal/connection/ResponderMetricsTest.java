package dev.sluice.core.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Lease;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RequestType;
import dev.sluice.core.ResponderMetrics;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.frame.RequestResponseFrame;
import dev.sluice.frame.SetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * What a {@link ResponderMetrics} hears from the engine: one report per request with its outcome, the reason of
 * each refusal (before the handler and by it), latency only for the requests it chose to time, and leases that add
 * up (granted = used + unused). A fake transport on the test thread and a clock the test moves.
 */
class ResponderMetricsTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong(1_000_000 * MS);
    private final Recording metrics = new Recording();
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

    @Test
    void eachRequestIsReportedOnceWithItsOutcome() {
        Sinks.One<Payload> slow = Sinks.one();
        connection = server(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                String text = p.dataUtf8();
                p.release();
                return switch (text) {
                    case "ok" -> Mono.just(Payload.create("fine"));
                    case "fail" -> Mono.error(new IllegalStateException("broken"));
                    case "refuse" -> Mono.error(new RejectedException("rate_limited"));
                    default -> slow.asMono();
                };
            }

            @Override
            public Mono<Void> fireAndForget(Payload p) {
                p.release();
                return Mono.empty();
            }

            @Override
            public Flux<Payload> requestStream(Payload p) {
                p.release();
                return Flux.just(Payload.create("a"), Payload.create("b"));
            }

            @Override
            public Flux<Payload> requestChannel(Publisher<Payload> in) {
                return Flux.from(in).doOnNext(Payload::release).thenMany(Flux.empty());
            }
        }, null);

        transport.receive(PeerFrames.requestResponse(1, "ok"));
        transport.receive(PeerFrames.requestResponse(3, "fail"));
        transport.receive(PeerFrames.requestResponse(5, "refuse"));
        transport.receive(PeerFrames.requestResponse(7, "slow"));
        transport.receive(PeerFrames.cancel(7));
        transport.receive(PeerFrames.fireAndForget(9, "f"));
        transport.receive(PeerFrames.requestStream(11, 10, "s"));
        transport.receive(PeerFrames.requestChannel(13, 10, true, "c"));

        assertThat(metrics.responses).containsExactly(
            "REQUEST_RESPONSE SUCCESS",
            "REQUEST_RESPONSE ERROR",
            "REQUEST_RESPONSE REJECTED rate_limited",
            "REQUEST_RESPONSE CANCELED",
            "FIRE_AND_FORGET SUCCESS",
            "REQUEST_STREAM SUCCESS",
            "REQUEST_CHANNEL SUCCESS");
        connection.dispose();
        assertThat(metrics.closed).isEqualTo(1);
    }

    @Test
    void onlyTheRequestsItPicksAreTimed() {
        List<Sinks.One<Payload>> answers = new ArrayList<>();
        connection = server(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                p.release();
                Sinks.One<Payload> answer = Sinks.one();
                answers.add(answer);
                return answer.asMono();
            }
        }, null);
        metrics.timeEvery = 2;

        transport.receive(PeerFrames.requestResponse(1, "q"));
        transport.receive(PeerFrames.requestResponse(3, "q"));
        now.addAndGet(7 * MS);
        answers.forEach(a -> a.tryEmitValue(Payload.create("a")));

        assertThat(metrics.latencies).as("the first untimed, the second timed").containsExactly(-1L, 7 * MS);
    }

    @Test
    void refusalsBeforeTheHandlerCarryTheirReasonAndLeasesAddUp() {
        Sinks.Many<Lease> leases = Sinks.many().unicast().onBackpressureBuffer();
        connection = server(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload p) {
                return Mono.just(p);
            }
        }, Leases.of(leases.asFlux()));

        transport.receive(PeerFrames.requestResponse(1, "before any lease"));
        leases.tryEmitNext(Lease.of(Duration.ofSeconds(1), 2));
        transport.receive(PeerFrames.requestResponse(3, "q"));
        transport.receive(PeerFrames.requestResponse(5, "q"));
        transport.receive(PeerFrames.requestResponse(7, "over the lease"));
        leases.tryEmitNext(Lease.of(Duration.ofSeconds(1), 5));
        transport.receive(PeerFrames.requestResponse(9, "q"));
        connection.dispose();

        assertThat(metrics.responses).containsExactly(
            "REQUEST_RESPONSE REJECTED lease_expired",
            "REQUEST_RESPONSE SUCCESS",
            "REQUEST_RESPONSE SUCCESS",
            "REQUEST_RESPONSE REJECTED lease_exhausted",
            "REQUEST_RESPONSE SUCCESS");
        assertThat(metrics.leaseEvents).containsExactly("sent 2", "ended used 2 unused 0", "sent 5",
            "ended used 1 unused 4");
    }

    @Test
    void requestsBeyondTheStreamBoundAreRejectedAsSuch() {
        ConnectionConfig oneStream = new ConnectionConfig(0, 1 << 20, 1, Duration.ofSeconds(60),
            Duration.ofSeconds(300), now::get, Duration.ofSeconds(1), () -> metrics);
        connection = RSocketConnection.server(transport, oneStream, new ServerSetup(SocketAcceptor.with(
            new RSocket() {
                @Override
                public Mono<Payload> requestResponse(Payload p) {
                    p.release();
                    return Mono.never();
                }
            }), null), Duration.ofSeconds(10));
        transport.receive(PeerFrames.setup());
        transport.receive(PeerFrames.requestResponse(1, "held"));
        transport.receive(PeerFrames.requestResponse(3, "one too many"));
        assertThat(metrics.responses).containsExactly("REQUEST_RESPONSE REJECTED too_many_streams");
        connection.dispose();
        assertThat(metrics.responses).last().isEqualTo("REQUEST_RESPONSE CANCELED");
    }

    @Test
    void aRequestOverTheSizeBoundIsRejectedWithItsReason() {
        ConnectionConfig small = new ConnectionConfig(0, 100, 1000, Duration.ofSeconds(60),
            Duration.ofSeconds(300), now::get, Duration.ofSeconds(1), () -> metrics);
        connection = RSocketConnection.server(transport, small, new ServerSetup(SocketAcceptor.with(
            new RSocket() { }), null), Duration.ofSeconds(10));
        transport.receive(PeerFrames.setup());
        ByteBuf first = PooledByteBufAllocator.DEFAULT.buffer();
        RequestResponseFrame.encode(first, 1, true, null,
            Unpooled.wrappedBuffer(new byte[80]));
        transport.receive(first);
        ByteBuf last = PooledByteBufAllocator.DEFAULT.buffer();
        PayloadFrame.encode(last, 1, false, false, true, null,
            Unpooled.wrappedBuffer(new byte[80]));
        transport.receive(last);
        assertThat(metrics.responses).singleElement().asString()
            .startsWith("REQUEST_RESPONSE REJECTED reassembled payload exceeds maxInboundPayloadSize");
    }

    private RSocketConnection server(RSocket handler, Leases leases) {
        ConnectionConfig config = new ConnectionConfig(0, 1 << 20, 1000, Duration.ofSeconds(60),
            Duration.ofSeconds(300), now::get, Duration.ofSeconds(1), () -> metrics);
        RSocketConnection c = RSocketConnection.server(transport, config,
            new ServerSetup(SocketAcceptor.with(handler), leases == null ? null : scheduler -> leases),
            Duration.ofSeconds(10));
        if (leases == null) {
            transport.receive(PeerFrames.setup());
        } else {
            transport.receive(leasingSetup());
        }
        transport.takeWritten().forEach(ByteBuf::release);
        return c;
    }

    private static ByteBuf leasingSetup() {
        ByteBuf out = PooledByteBufAllocator.DEFAULT.buffer();
        SetupFrame.encode(out, true, 60_000, 300_000, null, PeerFrames.MIME, PeerFrames.MIME,
            null, null);
        return out;
    }

    /** Writes down what it hears; times every {@code timeEvery}-th request (never when 0). */
    private static final class Recording implements ResponderMetrics {
        final List<String> responses = new ArrayList<>();
        final List<Long> latencies = new ArrayList<>();
        final List<String> leaseEvents = new ArrayList<>();
        int timeEvery;
        int seen;
        int closed;

        @Override
        public boolean timeNext() {
            seen++;
            return timeEvery > 0 && seen % timeEvery == 0;
        }

        @Override
        public void onResponse(RequestType type, Outcome outcome, String reason, long latencyNanos) {
            responses.add(type + " " + outcome + (reason == null ? "" : " " + reason));
            latencies.add(latencyNanos);
        }

        @Override
        public void onLeaseSent(int permits) {
            leaseEvents.add("sent " + permits);
        }

        @Override
        public void onLeaseEnded(int usedPermits, int unusedPermits) {
            leaseEvents.add("ended used " + usedPermits + " unused " + unusedPermits);
        }

        @Override
        public void onClose() {
            closed++;
        }
    }
}
