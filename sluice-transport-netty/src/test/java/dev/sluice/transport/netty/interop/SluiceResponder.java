package dev.sluice.transport.netty.interop;

import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.core.exceptions.CustomRSocketException;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.frame.metadata.CompositeMetadata;
import dev.sluice.frame.metadata.CompositeMetadataCursor;
import dev.sluice.frame.metadata.RoutingMetadata;
import dev.sluice.frame.metadata.WellKnownMimeType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The Sluice side of the interop tests: the twin of {@link JavaResponder} written against Sluice's API. Echoes,
 * fails on request, reads composite routing metadata with sluice-frame's cursors, and records what it saw.
 */
final class SluiceResponder implements RSocket {

    final BlockingQueue<String> fireAndForgets = new LinkedBlockingQueue<>();
    final BlockingQueue<String> metadataPushes = new LinkedBlockingQueue<>();
    final AtomicLong streamRequested = new AtomicLong();
    final AtomicInteger streamEmitted = new AtomicInteger();
    volatile CompletableFuture<Void> streamCancelled = new CompletableFuture<>();
    volatile CompletableFuture<Void> channelCancelled = new CompletableFuture<>();

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        fireAndForgets.add(payload.dataUtf8());
        payload.release();
        return Mono.empty();
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        metadataPushes.add(payload.metadataUtf8());
        payload.release();
        return Mono.empty();
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        String data = payload.dataUtf8();
        switch (data) {
            case "fail" -> {
                payload.release();
                return Mono.error(new ApplicationErrorException("boom: sluice handler failed on purpose"));
            }
            case "custom" -> {
                payload.release();
                return Mono.error(new CustomRSocketException(0x302, "custom code from sluice"));
            }
            case "route" -> {
                List<String> tags = routes(payload);
                payload.release();
                return Mono.just(Payload.create(JavaResponder.dataOf(String.join(",", tags)), replyRouting(tags)));
            }
            default -> {
                return Mono.just(payload);
            }
        }
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        String data = payload.dataUtf8();
        payload.release();
        streamRequested.set(0);
        streamEmitted.set(0);
        CompletableFuture<Void> cancelled = new CompletableFuture<>();
        streamCancelled = cancelled;
        return Flux.range(0, Integer.MAX_VALUE)
            .doOnRequest(n -> streamRequested.accumulateAndGet(n, JavaResponder::saturatedAdd))
            .map(i -> Payload.create(data + i))
            .doOnNext(p -> streamEmitted.incrementAndGet())
            .doOnCancel(() -> cancelled.complete(null));
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        CompletableFuture<Void> cancelled = new CompletableFuture<>();
        channelCancelled = cancelled;
        return Flux.from(payloads).doOnCancel(() -> cancelled.complete(null));
    }

    /** The routing tags in the composite metadata of {@code payload}, read with sluice-frame's cursors. */
    static List<String> routes(Payload payload) {
        List<String> tags = new ArrayList<>();
        if (!payload.hasMetadata()) {
            return tags;
        }
        ByteBuf md = payload.metadata();
        CompositeMetadataCursor c = CompositeMetadata.cursor(md, md.readerIndex(), md.readableBytes());
        while (c.next()) {
            if (c.hasMimeId() && c.wellKnownMimeType() == WellKnownMimeType.MESSAGE_RSOCKET_ROUTING) {
                tags.addAll(RoutingMetadata.tags(md, c.contentIndex(), c.contentLength()));
            }
        }
        return tags;
    }

    /** Composite metadata with one routing entry, "reply" followed by {@code tags}, made by sluice-frame. */
    static ByteBuf replyRouting(List<String> tags) {
        List<String> reply = new ArrayList<>();
        reply.add("reply");
        reply.addAll(tags);
        ByteBuf md = ByteBufAllocator.DEFAULT.buffer();
        CompositeMetadata.addRoutingEntry(md, reply);
        return md;
    }

    /** Composite metadata for a request: a routing entry with {@code tags}, then a custom-MIME entry. */
    static ByteBuf requestRouting(List<String> tags) {
        ByteBuf md = ByteBufAllocator.DEFAULT.buffer();
        CompositeMetadata.addRoutingEntry(md, tags);
        ByteBuf extra = JavaResponder.dataOf("trace-id-7");
        try {
            CompositeMetadata.addEntry(md, "application/x.sluice.trace", extra);
        } finally {
            extra.release();
        }
        return md;
    }
}
