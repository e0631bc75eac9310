package dev.sluice.cli.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.core.ApplicationErrorException;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.RejectedException;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

@Timeout(60)
class LoadGeneratorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final AtomicInteger received = new AtomicInteger();
    private CloseableServer server;
    private Connection connection;

    @AfterEach
    void close() {
        if (connection != null) {
            connection.dispose();
        }
        if (server != null) {
            server.dispose();
        }
    }

    /**
     * The open-loop property: every response takes 2 s, yet the generator sends 1000 requests in each second — two
     * full seconds of requests go out before the first answer comes back — and every request gets its answer.
     */
    @Test
    void holdsTheRateWhileResponsesTakeSeconds() {
        connect(n -> Mono.delay(Duration.ofSeconds(2)).map(t -> Payload.create("slow")));
        List<SecondStats> reported = new CopyOnWriteArrayList<>();

        LoadSummary s = LoadGenerator.create(connection).rate(1000).duration(Duration.ofSeconds(3))
            .drainTimeout(Duration.ofSeconds(10)).onSecond(reported::add).run();

        assertThat(s.sent()).isEqualTo(3000);
        assertThat(received).as("requests the server received").hasValue(3000);
        SecondStats first = s.seconds().get(0);
        SecondStats second = s.seconds().get(1);
        assertThat(first.responses() + second.responses()).as("answers in the first two seconds").isZero();
        assertThat(first.sent() + second.sent())
            .as("sent in the first two seconds, 1000/s ± 2%%, while no answer came; seconds %s, max send lag %d µs",
                s.seconds(), s.maxSendLagMicros())
            .isBetween(1960L, 2040L);
        assertThat(s.achievedRate()).as("sent / time to the last send").isBetween(980.0, 1000.0);
        assertThat(s.responses()).isEqualTo(3000);
        assertThat(s.responsesByServer()).isEqualTo(Map.of("slow", 3000L));
        assertThat(s.responseLatency().p50Micros()).as("latency counts the 2 s wait").isGreaterThanOrEqualTo(2_000_000);
        assertAddsUp(s);
        assertThat(reported).as("the listener saw every second").isEqualTo(s.seconds());
    }

    /** Responses per server, rejections, errors and unanswered requests: each request counted once. */
    @Test
    void everyRequestHasExactlyOneOutcome() {
        connect(n -> switch (n % 5) {
            case 0 -> Mono.just(Payload.create("127.0.0.1:7001"));
            case 1 -> Mono.just(Payload.create("127.0.0.1:7002"));
            case 2 -> Mono.error(new RejectedException("lease_exhausted"));
            case 3 -> Mono.error(new ApplicationErrorException("boom"));
            default -> Mono.never();
        });

        LoadSummary s = LoadGenerator.create(connection).rate(200).duration(Duration.ofSeconds(1))
            .payloadSize(100).drainTimeout(Duration.ofMillis(300)).run();

        assertThat(s.sent()).isEqualTo(200);
        assertThat(s.responsesByServer()).isEqualTo(Map.of("127.0.0.1:7001", 40L, "127.0.0.1:7002", 40L));
        assertThat(s.responses()).isEqualTo(80);
        assertThat(s.rejected()).isEqualTo(40);
        assertThat(s.failed()).isEqualTo(80);
        assertThat(s.failuresByCause()).isEqualTo(Map.of(
            "ApplicationErrorException: boom", 40L,
            "no answer within the drain timeout (300 ms)", 40L));
        assertThat(s.rejectionLatency().count()).isEqualTo(40);
        assertThat(s.payloadSize()).isEqualTo(100);
        assertAddsUp(s);
    }

    /** The server goes away mid-run: what was in flight and what is sent afterwards fail, and are counted. */
    @Test
    void aServerThatDiesMidRunLeavesNoRequestUncounted() {
        connect(n -> {
            if (n == 150) {
                server.dispose();
            }
            return Mono.delay(Duration.ofMillis(50)).map(t -> Payload.create("s"));
        });

        LoadSummary s = LoadGenerator.create(connection).rate(500).duration(Duration.ofSeconds(1))
            .drainTimeout(Duration.ofSeconds(2)).run();

        assertThat(s.sent()).isEqualTo(500);
        assertThat(s.responses()).isPositive().isLessThan(151);
        assertThat(s.failed()).isGreaterThanOrEqualTo(350);
        assertAddsUp(s);
    }

    @Test
    void stopEndsSendingAndTheRunStillAddsUp() {
        connect(n -> Mono.just(Payload.create("s")));
        AtomicReference<LoadGenerator> generator = new AtomicReference<>();
        generator.set(LoadGenerator.create(connection).rate(100).duration(Duration.ofSeconds(30))
            .onSecond(second -> generator.get().stop()));

        LoadSummary s = generator.get().run();

        assertThat(s.sent()).as("about one second's worth of 30").isBetween(90L, 200L);
        assertThat(s.responses()).isEqualTo(s.sent());
        assertThat(s.duration()).as("the time it sent, not the 30 s planned").isLessThan(Duration.ofSeconds(30));
        assertThat(s.perSecond(s.sent())).as("rates over that time").isCloseTo(s.achievedRate(), within(1e-6));
        assertAddsUp(s);
    }

    @Test
    void aListenerFailureStopsTheRunAndIsRethrown() {
        connect(n -> Mono.just(Payload.create("s")));
        LoadGenerator g = LoadGenerator.create(connection).rate(100).duration(Duration.ofSeconds(30))
            .onSecond(second -> {
                throw new IllegalStateException("listener broke");
            });
        assertThatThrownBy(g::run).hasMessage("listener broke");
        assertThatThrownBy(g::run).hasMessage("a LoadGenerator runs once; create another");
    }

    @Test
    void rejectsWrongSettingsWithTheValue() {
        RSocket target = new RSocket() { };
        assertThatThrownBy(() -> LoadGenerator.create(target).rate(0))
            .hasMessage("rate must be between 1 and 10000000 requests/s, got 0");
        assertThatThrownBy(() -> LoadGenerator.create(target).duration(Duration.ZERO))
            .hasMessage("duration must be > 0 and < 2^31 s, got PT0S");
        assertThatThrownBy(() -> LoadGenerator.create(target).payloadSize(-1))
            .hasMessage("payload size must be between 0 and 16777152 bytes, got -1");
        assertThatThrownBy(() -> LoadGenerator.create(target).drainTimeout(Duration.ofSeconds(-1)))
            .hasMessage("drain timeout must be >= 0 and < 2^31 s, got PT-1S");
    }

    /** sent = responses + rejected + failed, in total and summed over the seconds, and the seconds chain. */
    static void assertAddsUp(LoadSummary s) {
        assertThat(s.responses() + s.rejected() + s.failed()).as("sent = responses + rejected + failed")
            .isEqualTo(s.sent());
        assertThat(s.seconds().stream().mapToLong(SecondStats::sent).sum()).isEqualTo(s.sent());
        assertThat(s.seconds().stream().mapToLong(SecondStats::responses).sum()).isEqualTo(s.responses());
        assertThat(s.seconds().stream().mapToLong(SecondStats::rejected).sum()).isEqualTo(s.rejected());
        assertThat(s.seconds().stream().mapToLong(SecondStats::failed).sum()).isEqualTo(s.failed());
        assertThat(s.responsesByServer().values().stream().mapToLong(Long::longValue).sum())
            .isEqualTo(s.responses());
        long inFlight = 0;
        for (SecondStats second : s.seconds()) {
            inFlight += second.sent() - second.completed();
            assertThat(second.inFlight()).as("in flight after second %d", second.second()).isEqualTo(inFlight);
        }
        assertThat(inFlight).as("nothing left in flight").isZero();
    }

    /** A server on a free loopback port answering the n-th request (from 0) with {@code answer}, and a client. */
    private void connect(IntFunction<Mono<Payload>> answer) {
        server = RSocketServer.create(SocketAcceptor.with(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                payload.release();
                return answer.apply(received.getAndIncrement());
            }
        })).bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
        connection = RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", server.port()))
            .block(TIMEOUT);
    }
}
