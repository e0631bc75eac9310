package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.RequestGate;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.limits.redis.RedisRateLimitGate;
import dev.sluice.limits.redis.RedisRateLimiter;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The rate-limit gate, shared through Redis: the same 5-request bucket as {@link RateLimitExample}, but kept in
 * Redis, so every server process pointing at that Redis draws from it. Of 8 requests at once, 5 pass and 3 are
 * refused with {@code rate_limited}. Prints the bucket's tokens (which also opens the connection to Redis), then
 * {@code 8 requests: {ok=5, rejected rate_limited=3}}.
 *
 * <p>Argument: the Redis URI (default {@code redis://127.0.0.1:6379}). The bucket's key gets a fresh suffix per
 * run, so runs do not share tokens.
 */
public final class RedisRateLimitExample {

    private RedisRateLimitExample() {
    }

    public static void main(String[] args) {
        String redis = args.length > 0 ? args[0] : "redis://127.0.0.1:6379";
        String bucket = "example-" + System.nanoTime();
        // A generous timeout for a demo on a busy machine; in production the 50 ms default bounds the latency a
        // slow Redis adds, and the failure policy (open by default) decides when it is exceeded.
        try (RedisRateLimiter limiter = RedisRateLimiter.builder(1.0 / 60, 5).redis(redis)
                .timeout(Duration.ofSeconds(2)).build()) {
            System.out.println("bucket " + bucket + " holds " + limiter.tokens(bucket).block() + " tokens");
            // One Redis round trip per request, no waiting for tokens; a refusal becomes ERROR[REJECTED]
            // rate_limited, as the local gate answers (rate_limiter_unavailable if Redis does not answer and the
            // policy fails closed).
            RequestGate gate = RedisRateLimitGate.of(limiter, request -> bucket, Duration.ZERO);
            SocketAcceptor handler = SocketAcceptor.forRequestResponse(request -> {
                request.release();
                return Mono.just(Payload.create("ok"));
            });
            CloseableServer server = RSocketServer.create(RequestGate.protect(handler, connection -> gate))
                .bindNow(TcpServerTransport.create("127.0.0.1", 0));

            Connection client = RSocketConnector.connectWith(TcpClientTransport.create("127.0.0.1", server.port()))
                .block();
            Map<String, Integer> outcomes = new TreeMap<>();
            Flux.range(0, 8)
                .flatMap(i -> client.requestResponse(Payload.create("hi"))
                    .map(answer -> {
                        String s = answer.dataUtf8();
                        answer.release();
                        return s;
                    })
                    .onErrorResume(RejectedException.class, e -> Mono.just("rejected " + e.getMessage())))
                .doOnNext(outcome -> outcomes.merge(outcome, 1, Integer::sum))
                .blockLast();
            System.out.println("8 requests: " + outcomes);

            client.dispose();
            server.dispose();
        }
    }
}
