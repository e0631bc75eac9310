package dev.sluice.limits.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.RateLimitGate;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.RequestGate;
import dev.sluice.core.RequestType;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.testkit.RedisServerProcess;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.netty.util.internal.ThreadExecutorMap;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/** The Redis gate against a real redis-server: refusals, waits, cancellation, failure policies, threads. */
class RedisRateLimitGateTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final Payload ANY = Payload.create("x");

    private static RedisServerProcess redis;
    private static int keys;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() {
        ANY.release();
        if (redis != null) {
            redis.close();
        }
    }

    /** A fresh bucket per test: the tests share one Redis. */
    private static String freshKey() {
        return "gate-test-" + (++keys);
    }

    private static RedisRateLimiter limiter(double perSecond, int burst) {
        return RedisRateLimiter.builder(perSecond, burst).redis(redis.uri()).timeout(Duration.ofSeconds(5)).build();
    }

    @Test
    void beyondTheBurstARequestIsRejectedWithRateLimited() {
        String key = freshKey();
        try (RedisRateLimiter limiter = limiter(1.0 / 60, 2)) {
            RequestGate gate = RedisRateLimitGate.of(limiter, p -> key, Duration.ZERO);

            StepVerifier.create(gate.admit(RequestType.REQUEST_RESPONSE, ANY)).expectComplete().verify(TIMEOUT);
            StepVerifier.create(gate.admit(RequestType.REQUEST_RESPONSE, ANY)).expectComplete().verify(TIMEOUT);
            StepVerifier.create(gate.admit(RequestType.REQUEST_RESPONSE, ANY))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedException.class)
                    .hasMessage(RateLimitGate.RATE_LIMITED))
                .verify(TIMEOUT);
            assertThat(limiter.tokens(key).block(TIMEOUT)).as("the refusal took nothing").isBetween(0.0, 0.01);
        }
    }

    @Test
    void aRequestWaitsForItsTokenWhenItComesWithinMaxWaitElseFailsAtOnce() {
        String key = freshKey();
        // 2/s: one token per 500 ms, none saved up beyond the first.
        try (RedisRateLimiter limiter = limiter(2, 1)) {
            RequestGate patient = RedisRateLimitGate.of(limiter, p -> key, Duration.ofSeconds(5));
            RequestGate hasty = RedisRateLimitGate.of(limiter, p -> key, Duration.ofMillis(200));

            StepVerifier.create(patient.admit(RequestType.REQUEST_RESPONSE, ANY)).expectComplete().verify(TIMEOUT);
            // The second reserves the next token, ~500 ms away, and waits for it. The third, asked after it over the
            // same connection (Redis decides in that order), would get the token after that, ~1 s away: more than
            // its 200 ms, so it is refused at once rather than after a wait.
            StepVerifier.create(patient.admit(RequestType.REQUEST_RESPONSE, ANY))
                .then(() -> StepVerifier.create(hasty.admit(RequestType.REQUEST_RESPONSE, ANY))
                    .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedException.class)
                        .hasMessage(RateLimitGate.RATE_LIMITED))
                    .verify(TIMEOUT))
                .as("the second is admitted once its token comes")
                .expectComplete().verify(TIMEOUT);
        }
    }

    @Test
    void cancellingDuringTheWaitGivesTheTokenBack() throws InterruptedException {
        String key = freshKey();
        // One token per 100 s: a reservation waits ~100 s, and time gives back almost nothing during the test.
        try (RedisRateLimiter limiter = limiter(0.01, 1)) {
            RequestGate gate = RedisRateLimitGate.of(limiter, p -> key, Duration.ofSeconds(200));
            StepVerifier.create(gate.admit(RequestType.REQUEST_RESPONSE, ANY)).expectComplete().verify(TIMEOUT);

            Disposable waiting = gate.admit(RequestType.REQUEST_RESPONSE, ANY).subscribe();
            awaitTokens(limiter, key, t -> t < -0.9, "the second request holds a reservation");
            waiting.dispose();

            awaitTokens(limiter, key, t -> t > -0.1, "the cancelled reservation's token is back");
        }
    }

    @Test
    void cancellingWhileRedisDecidesGivesTheTokenBackWhenTheAnswerComes() throws Exception {
        String key = freshKey();
        try (RedisRateLimiter limiter = limiter(0.01, 1)) {
            RequestGate gate = RedisRateLimitGate.of(limiter, p -> key, Duration.ofSeconds(200));
            StepVerifier.create(gate.admit(RequestType.REQUEST_RESPONSE, ANY)).expectComplete().verify(TIMEOUT);

            // Redis holds every command for 500 ms: the reservation is sent, and cancelled before it is decided.
            assertThat(redis.command("CLIENT", "PAUSE", "500", "ALL")).isEqualTo("OK");
            List<String> signals = new CopyOnWriteArrayList<>();
            Disposable deciding = gate.admit(RequestType.REQUEST_RESPONSE, ANY)
                .subscribe(v -> { }, e -> signals.add("error " + e), () -> signals.add("complete"));
            deciding.dispose();

            // Without the give-back, the bucket would owe one token (-1) for ~100 s once Redis decides.
            awaitTokens(limiter, key, t -> t > -0.1, "the token reserved after the cancel is given back");
            assertThat(signals).as("a cancelled admission signals nothing").isEmpty();
        }
    }

    @Test
    void whenRedisIsDownFailClosedRejectsAndFailOpenAdmits() throws Exception {
        String down = "redis://127.0.0.1:" + RedisServerProcess.freePort();
        try (RedisRateLimiter closed = RedisRateLimiter.builder(10, 1).redis(down)
                .failurePolicy(FailurePolicy.FAIL_CLOSED).build();
             RedisRateLimiter open = RedisRateLimiter.builder(10, 1).redis(down)
                 .failurePolicy(FailurePolicy.FAIL_OPEN).build()) {
            // Not rate_limited: the request is not over the limit, the limiter is out of reach.
            StepVerifier.create(RedisRateLimitGate.of(closed, p -> "k", Duration.ZERO)
                    .admit(RequestType.REQUEST_RESPONSE, ANY))
                .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RejectedException.class)
                    .hasMessage("rate_limiter_unavailable"))
                .verify(TIMEOUT);
            for (int i = 0; i < 3; i++) {
                StepVerifier.create(RedisRateLimitGate.of(open, p -> "k", Duration.ZERO)
                    .admit(RequestType.REQUEST_RESPONSE, ANY)).expectComplete().verify(TIMEOUT);
            }
            assertThat(open.degradedDecisions()).as("each admitted by the policy").isEqualTo(3);
        }
    }

    @Test
    void theHandlerRunsOnTheConnectionsEventLoopNeverOnARedisThread() {
        String key = freshKey();
        String spentKey = freshKey();
        List<String> threads = new CopyOnWriteArrayList<>();
        RSocket handler = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                payload.release();
                threads.add(Thread.currentThread().getName()
                    + (ThreadExecutorMap.currentExecutor() != null ? " (event loop)" : ""));
                return Mono.just(Payload.create("ok"));
            }
        };
        try (RedisRateLimiter limiter = limiter(20, 1); RedisRateLimiter slow = limiter(1.0 / 60, 1)) {
            // The second gate's bucket is empty and refills once a minute: its request must be refused.
            assertThat(slow.allowN(spentKey, 1).block(TIMEOUT).allowed()).isTrue();
            RequestGate waiting = RedisRateLimitGate.of(limiter, p -> key, Duration.ofSeconds(1));
            RequestGate spent = RedisRateLimitGate.of(slow, p -> spentKey, Duration.ZERO);
            CloseableServer server = RSocketServer.create(RequestGate.protect(SocketAcceptor.with(handler),
                c -> waiting)).bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
            CloseableServer strict = RSocketServer.create(RequestGate.protect(SocketAcceptor.with(handler),
                c -> spent)).bind(TcpServerTransport.create("127.0.0.1", 0)).block(TIMEOUT);
            Connection client = RSocketConnector.create()
                .connect(TcpClientTransport.create("127.0.0.1", server.port())).block(TIMEOUT);
            Connection second = RSocketConnector.create()
                .connect(TcpClientTransport.create("127.0.0.1", strict.port())).block(TIMEOUT);
            try {
                // Three at once on a bucket of one: the first is admitted at once, the next two hold reservations
                // and are admitted when their tokens come, ~50 and ~100 ms later.
                List<Payload> answers = Flux.merge(client.requestResponse(Payload.create("r0")),
                    client.requestResponse(Payload.create("r1")), client.requestResponse(Payload.create("r2")))
                    .collectList().block(TIMEOUT);
                answers.forEach(Payload::release);
                // A request refused by Redis is answered ERROR[REJECTED] rate_limited over the wire.
                assertThatThrownBy(() -> second.requestResponse(Payload.create("now")).block(TIMEOUT))
                    .isInstanceOf(RejectedException.class).hasMessage(RateLimitGate.RATE_LIMITED);
            } finally {
                second.dispose();
                client.dispose();
                strict.dispose();
                server.dispose();
            }
        }
        assertThat(threads).hasSize(3).allSatisfy(t -> assertThat(t).startsWith("sluice-io").endsWith("(event loop)"));
    }

    private static void awaitTokens(RedisRateLimiter limiter, String key, DoublePredicate condition, String what)
        throws InterruptedException {
        double tokens = Double.NaN;
        // Bounded: 200 reads, 25 ms apart.
        for (int i = 0; i < 200; i++) {
            tokens = limiter.tokens(key).block(TIMEOUT);
            if (condition.test(tokens)) {
                return;
            }
            Thread.sleep(25);
        }
        throw new AssertionError(what + ": tokens are still " + tokens);
    }
}
