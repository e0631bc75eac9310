package dev.sluice.transport.netty.conformance;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The responder behind the server that scripted peers talk to. Request-response echoes (so a peer can "ping" with
 * it), request-stream counts up and records every {@code request(n)} it gets, request-channel echoes, and both
 * fire-and-forget and metadata-push are counted. {@link #GATED} data and {@link #channelTakesOne} select other
 * behaviours.
 */
final class ScriptHandler implements RSocket {

    /** Request-stream data: emit 3 elements, wait for {@link #gate}, then emit 1,000 more and complete. */
    static final String GATED = "gated";

    final AtomicInteger fireAndForgets = new AtomicInteger();
    final AtomicInteger metadataPushes = new AtomicInteger();
    /** Every {@code request(n)} the request-stream handlers received, in order. */
    final List<Long> streamRequests = new CopyOnWriteArrayList<>();
    /** Completes when a request-stream handler Flux is cancelled. */
    final CompletableFuture<Void> streamCancelled = new CompletableFuture<>();
    /** Opens the second half of a {@link #GATED} stream. */
    final CompletableFuture<Void> gate = new CompletableFuture<>();
    /**
     * When set, request-channel asks the requester for exactly one payload (the one REQUEST_CHANNEL carries),
     * never for more, and sends nothing back; otherwise it echoes.
     */
    volatile boolean channelTakesOne;
    /** How many elements a (non-gated) request-stream emits before completing; unbounded by default. */
    volatile int streamLength = Integer.MAX_VALUE;
    /** Payloads and the error the one-payload channel saw. */
    final List<String> channelInbound = new CopyOnWriteArrayList<>();
    final CompletableFuture<Throwable> channelInboundError = new CompletableFuture<>();

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        payload.release();
        fireAndForgets.incrementAndGet();
        return Mono.empty();
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        payload.release();
        metadataPushes.incrementAndGet();
        return Mono.empty();
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        return Mono.just(payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        String data = payload.dataUtf8();
        payload.release();
        Flux<Integer> source = GATED.equals(data)
            ? Flux.range(0, 3).concatWith(Mono.fromFuture(gate).thenMany(Flux.range(3, 1000)))
            : Flux.range(0, streamLength);
        return source
            .map(i -> Payload.create(data + i))
            .doOnRequest(n -> streamRequests.add(n))
            .doOnCancel(() -> streamCancelled.complete(null));
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return channelTakesOne ? takeOne(payloads) : Flux.from(payloads);
    }

    /** Consumes the first payload with a demand of exactly one and never asks for more. */
    private Flux<Payload> takeOne(Publisher<Payload> inbound) {
        inbound.subscribe(new BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(Subscription s) {
                s.request(1);
            }

            @Override
            protected void hookOnNext(Payload p) {
                channelInbound.add(p.dataUtf8());
                p.release();
            }

            @Override
            protected void hookOnError(Throwable t) {
                channelInboundError.complete(t);
            }
        });
        return Flux.never();
    }
}
