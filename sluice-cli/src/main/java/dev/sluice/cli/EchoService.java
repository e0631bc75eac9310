package dev.sluice.cli;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import java.util.concurrent.atomic.AtomicLong;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The echo test service: request-response echoes data and metadata; request-stream emits the request payload
 * again and again (zero copy: the same buffers, retained per element) until cancelled or {@code streamCount}
 * times; request-channel echoes every inbound payload; fire-and-forget and metadata-push are counted.
 */
final class EchoService implements RSocket {

    final AtomicLong requestResponses = new AtomicLong();
    final AtomicLong streams = new AtomicLong();
    final AtomicLong channels = new AtomicLong();
    final AtomicLong fireAndForgets = new AtomicLong();
    final AtomicLong metadataPushes = new AtomicLong();
    private volatile long streamCount;

    /** @param streamCount elements per request-stream; {@code Long.MAX_VALUE} for "until cancelled" */
    EchoService(long streamCount) {
        this.streamCount = streamCount;
    }

    void streamCount(long count) {
        this.streamCount = count;
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        requestResponses.incrementAndGet();
        return Mono.just(payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        streams.incrementAndGet();
        long count = streamCount;
        Flux<Payload> copies = Flux.<Payload>generate(sink -> sink.next(payload.retain()));
        return (count == Long.MAX_VALUE ? copies : copies.take(count, true))
            .doFinally(signal -> payload.release());
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        channels.incrementAndGet();
        return Flux.from(payloads);
    }

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        fireAndForgets.incrementAndGet();
        payload.release();
        return Mono.empty();
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        metadataPushes.incrementAndGet();
        payload.release();
        return Mono.empty();
    }

    /** One line of counters for the log. */
    String counters() {
        return "request-response=" + requestResponses.get() + " request-stream=" + streams.get()
            + " request-channel=" + channels.get() + " fire-and-forget=" + fireAndForgets.get()
            + " metadata-push=" + metadataPushes.get();
    }
}
