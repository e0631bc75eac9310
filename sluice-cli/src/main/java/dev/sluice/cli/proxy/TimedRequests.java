package dev.sluice.cli.proxy;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The proxy's requests to its servers, with a deadline on request-response: without an answer within
 * {@code --request-timeout} the request is cancelled on the server's connection and fails to the client, so no
 * client waits on a stopped or hung server longer than that. Streams and channels are not timed: they may be idle
 * on purpose.
 */
final class TimedRequests implements RSocket {

    private final RSocket servers;
    private final Duration timeout;
    private final String message;

    TimedRequests(RSocket servers, Duration timeout) {
        this.servers = servers;
        this.timeout = timeout;
        this.message = "no answer from the server within " + timeout.toMillis() + " ms (--request-timeout)";
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        return servers.requestResponse(payload).timeout(timeout, Mono.error(() -> new TimeoutException(message)));
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        return servers.fireAndForget(payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        return servers.requestStream(payload);
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return servers.requestChannel(payloads);
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        return servers.metadataPush(payload);
    }

    @Override
    public double availability() {
        return servers.availability();
    }
}
