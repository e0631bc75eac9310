package dev.sluice.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.rpc.echo.v1.EchoClient;
import dev.sluice.rpc.echo.v1.EchoReply;
import dev.sluice.rpc.echo.v1.EchoRequest;
import dev.sluice.rpc.echo.v1.EchoRpc;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * Cancellation crosses the wire (a client's timeout or cancel reaches the handler as a cancel), and streaming
 * demand is RSocket request-n end to end: the handler produces only what the caller asked for.
 */
class CancellationAndDemandTest {

    private static final long WAIT_SECONDS = 10;

    private final CompletableFuture<Void> sayStarted = new CompletableFuture<>();
    private final CompletableFuture<Void> sayCancelled = new CompletableFuture<>();
    private final CompletableFuture<Void> repeatCancelled = new CompletableFuture<>();
    private final AtomicLong repeatRequested = new AtomicLong();
    private final AtomicInteger chatRequestsSent = new AtomicInteger();
    private final CompletableFuture<Void> chatCancelled = new CompletableFuture<>();
    private LoopbackRpc loopback;
    private EchoClient echo;

    @BeforeEach
    void start() {
        RpcService service = RpcService.builder(EchoRpc.SERVICE_NAME)
            .unary(EchoRpc.METHOD_SAY, r -> Mono.<EchoReply>never()
                .doOnSubscribe(s -> sayStarted.complete(null))
                .doOnCancel(() -> sayCancelled.complete(null)))
            .serverStreaming(EchoRpc.METHOD_REPEAT, r -> Flux.range(0, 1_000_000)
                .doOnRequest(repeatRequested::addAndGet)
                .doOnCancel(() -> repeatCancelled.complete(null))
                .map(i -> EchoReply.newBuilder().setIndex(i).build()))
            .bidiStreaming(EchoRpc.METHOD_CHAT, requests -> requests
                .map(q -> EchoReply.newBuilder().setText(q.getText()).build())
                .doOnCancel(() -> chatCancelled.complete(null)))
            .build();
        loopback = new LoopbackRpc(RpcRouter.of(service));
        echo = EchoRpc.client(loopback.connection);
    }

    @AfterEach
    void stop() {
        loopback.close();
    }

    @Test
    void aClientTimeoutCancelsTheCallOnTheServer() throws Exception {
        StepVerifier.create(echo.say(EchoRequest.getDefaultInstance()).timeout(Duration.ofMillis(200)))
            .expectError(TimeoutException.class)
            .verify(LoopbackRpc.TIMEOUT);
        sayStarted.get(WAIT_SECONDS, TimeUnit.SECONDS);
        sayCancelled.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void disposingACallCancelsItOnTheServer() throws Exception {
        Disposable call = echo.say(EchoRequest.getDefaultInstance()).subscribe();
        sayStarted.get(WAIT_SECONDS, TimeUnit.SECONDS);
        call.dispose();
        sayCancelled.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void serverStreamingProducesOnlyWhatTheCallerRequested() throws Exception {
        StepVerifier.create(echo.repeat(EchoRequest.getDefaultInstance()).map(EchoReply::getIndex), 0)
            .thenRequest(3)
            .expectNext(0, 1, 2)
            .then(() -> assertThat(repeatRequested.get()).isEqualTo(3))
            .thenRequest(4)
            .expectNext(3, 4, 5, 6)
            .then(() -> assertThat(repeatRequested.get()).isEqualTo(7))
            .thenCancel()
            .verify(LoopbackRpc.TIMEOUT);
        repeatCancelled.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void aBidiCallerPullsOnlyWhatTheServerAsksFor() throws Exception {
        Flux<EchoRequest> endless = Flux.range(0, Integer.MAX_VALUE)
            .map(i -> EchoRequest.newBuilder().setText("m" + i).build())
            .doOnNext(q -> chatRequestsSent.incrementAndGet());
        StepVerifier.create(echo.chat(endless).map(EchoReply::getText), 0)
            .thenRequest(5)
            .expectNext("m0", "m1", "m2", "m3", "m4")
            .thenCancel()
            .verify(LoopbackRpc.TIMEOUT);
        chatCancelled.get(WAIT_SECONDS, TimeUnit.SECONDS);
        // The server asked for requests as its caller asked for replies: a bounded window, not the endless source.
        assertThat(chatRequestsSent.get()).isLessThan(1_000);
    }
}
