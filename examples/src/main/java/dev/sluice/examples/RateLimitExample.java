package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.RateLimitGate;
import dev.sluice.core.RequestGate;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.limits.RateLimiter;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The rate-limit gate, local: a token bucket of 5 requests, refilled at one per minute, guards the handler. Of 8
 * requests at once, 5 pass and 3 are refused with ERROR[REJECTED] {@code rate_limited} before the handler runs.
 * Prints {@code 8 requests: {ok=5, rejected rate_limited=3}}.
 *
 * <p>With a maximum wait above zero, a request that would get its token within that wait is held back until then
 * instead of refused.
 */
public final class RateLimitExample {

    private RateLimitExample() {
    }

    public static void main(String[] args) {
        RateLimiter limiter = RateLimiter.create(RateLimiter.every(Duration.ofMinutes(1)), 5);
        RateLimitGate gate = RateLimitGate.of(limiter, Duration.ZERO);

        SocketAcceptor handler = SocketAcceptor.forRequestResponse(request -> {
            request.release();
            return Mono.just(Payload.create("ok"));
        });
        // Every connection's handler behind the same gate: one bucket for the whole server.
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
