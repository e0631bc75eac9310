package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.exceptions.UnsupportedInteractionException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

class SocketAcceptorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private static RSocket handlerOf(SocketAcceptor acceptor) {
        return acceptor.accept(null, null).block(TIMEOUT);
    }

    private static String readAndRelease(Payload p) {
        try {
            return p.dataUtf8();
        } finally {
            p.release();
        }
    }

    @Test
    void forRequestResponseServesThatInteractionOnly() {
        RSocket h = handlerOf(SocketAcceptor.forRequestResponse(
            p -> Mono.just(Payload.create("re:" + readAndRelease(p)))));
        StepVerifier.create(h.requestResponse(Payload.create("a")).map(SocketAcceptorTest::readAndRelease))
            .expectNext("re:a").expectComplete().verify(TIMEOUT);
        StepVerifier.create(h.requestStream(Payload.create("a")))
            .expectError(UnsupportedInteractionException.class).verify(TIMEOUT);
    }

    @Test
    void forRequestStreamServesThatInteractionOnly() {
        RSocket h = handlerOf(SocketAcceptor.forRequestStream(p -> {
            String s = readAndRelease(p);
            return Flux.range(0, 3).map(i -> Payload.create(s + i));
        }));
        StepVerifier.create(h.requestStream(Payload.create("s")).map(SocketAcceptorTest::readAndRelease))
            .expectNext("s0", "s1", "s2").expectComplete().verify(TIMEOUT);
        StepVerifier.create(h.requestResponse(Payload.create("a")))
            .expectError(UnsupportedInteractionException.class).verify(TIMEOUT);
    }

    @Test
    void forRequestChannelServesThatInteractionOnly() {
        RSocket h = handlerOf(SocketAcceptor.forRequestChannel(in -> Flux.from(in)
            .map(p -> Payload.create(readAndRelease(p).toUpperCase()))));
        StepVerifier.create(h.requestChannel(Flux.just(Payload.create("x"), Payload.create("y")))
                .map(SocketAcceptorTest::readAndRelease))
            .expectNext("X", "Y").expectComplete().verify(TIMEOUT);
        StepVerifier.create(h.fireAndForget(Payload.create("a")))
            .expectError(UnsupportedInteractionException.class).verify(TIMEOUT);
    }

    @Test
    void forFireAndForgetServesThatInteractionOnly() {
        StringBuilder seen = new StringBuilder();
        RSocket h = handlerOf(SocketAcceptor.forFireAndForget(p -> {
            seen.append(readAndRelease(p));
            return Mono.empty();
        }));
        StepVerifier.create(h.fireAndForget(Payload.create("f"))).expectComplete().verify(TIMEOUT);
        assertThat(seen.toString()).isEqualTo("f");
        StepVerifier.create(h.requestChannel(Flux.empty()))
            .expectError(UnsupportedInteractionException.class).verify(TIMEOUT);
    }
}
