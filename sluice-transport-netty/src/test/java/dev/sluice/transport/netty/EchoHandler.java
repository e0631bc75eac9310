package dev.sluice.transport.netty;

import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import java.util.concurrent.atomic.AtomicInteger;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** A test responder: echoes, streams copies, fails on data "fail", counts fire-and-forget and metadata-push. */
final class EchoHandler implements RSocket {

    final AtomicInteger fireAndForgets = new AtomicInteger();
    final AtomicInteger metadataPushes = new AtomicInteger();

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        payload.release();
        fireAndForgets.incrementAndGet();
        return Mono.empty();
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        if (payload.dataUtf8().equals("fail")) {
            payload.release();
            return Mono.error(new ApplicationErrorException("you asked for it"));
        }
        return Mono.just(payload);
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        String data = payload.dataUtf8();
        String md = payload.hasMetadata() ? payload.metadataUtf8() : null;
        payload.release();
        return Flux.range(0, Integer.MAX_VALUE).map(i -> Payload.create(data + i, md));
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        return Flux.from(payloads);
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        payload.release();
        metadataPushes.incrementAndGet();
        return Mono.empty();
    }
}
