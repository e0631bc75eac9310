package dev.sluice.cli.proxy;

import dev.sluice.core.DelegatingRSocket;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Mono;

/**
 * The proxy's requests to its servers, with a deadline on request-response: without an answer within
 * {@code --request-timeout} the request is cancelled on the server's connection and fails to the client, so no
 * client waits on a stopped or hung server longer than that. Streams and channels are not timed: they may be idle
 * on purpose. Everything else goes to the servers as it is.
 */
final class TimedRequests extends DelegatingRSocket {

    private final Duration timeout;
    private final String message;

    TimedRequests(RSocket servers, Duration timeout) {
        super(servers);
        this.timeout = timeout;
        this.message = "no answer from the server within " + timeout.toMillis() + " ms (--request-timeout)";
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        return delegate.requestResponse(payload).timeout(timeout, Mono.error(() -> new TimeoutException(message)));
    }
}
