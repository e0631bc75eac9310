package dev.sluice.transport.netty.interop;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.exceptions.CustomRSocketException;
import io.rsocket.metadata.CompositeMetadata;
import io.rsocket.metadata.CompositeMetadataCodec;
import io.rsocket.metadata.RoutingMetadata;
import io.rsocket.metadata.TaggingMetadataCodec;
import io.rsocket.metadata.WellKnownMimeType;
import io.rsocket.util.ByteBufPayload;
import java.nio.charset.StandardCharsets;
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
 * The rsocket-java side of the interop tests: a responder that echoes, fails on request, reads composite routing
 * metadata, and records what it saw (fire-and-forget and metadata-push payloads, the demand and cancel of its
 * streams) so that a test can assert what reached the rsocket-java peer.
 *
 * <p>It runs with {@code PayloadDecoder.ZERO_COPY}, so every payload it receives is a view of a network buffer and
 * is released here (or handed back to rsocket-java, which releases it after writing it).
 */
final class JavaResponder implements RSocket {

    /** Data of each fire-and-forget received, in order. */
    final BlockingQueue<String> fireAndForgets = new LinkedBlockingQueue<>();
    /** Metadata of each metadata-push received, in order. */
    final BlockingQueue<String> metadataPushes = new LinkedBlockingQueue<>();
    /** Sum of the demand the last request-stream's handler Flux received (saturating). */
    final AtomicLong streamRequested = new AtomicLong();
    /** Elements the last request-stream's handler Flux emitted. */
    final AtomicInteger streamEmitted = new AtomicInteger();
    /** Completes when the last request-stream's handler Flux is cancelled. */
    volatile CompletableFuture<Void> streamCancelled = new CompletableFuture<>();
    /** Completes when the last request-channel's response Flux is cancelled. */
    volatile CompletableFuture<Void> channelCancelled = new CompletableFuture<>();

    @Override
    public Mono<Void> fireAndForget(Payload payload) {
        fireAndForgets.add(payload.getDataUtf8());
        payload.release();
        return Mono.empty();
    }

    @Override
    public Mono<Void> metadataPush(Payload payload) {
        metadataPushes.add(payload.getMetadataUtf8());
        payload.release();
        return Mono.empty();
    }

    @Override
    public Mono<Payload> requestResponse(Payload payload) {
        String data = payload.getDataUtf8();
        switch (data) {
            case "fail" -> {
                payload.release();
                return Mono.error(new IllegalStateException("boom: rsocket-java handler failed on purpose"));
            }
            case "custom" -> {
                payload.release();
                return Mono.error(new CustomRSocketException(0x301, "custom code from rsocket-java"));
            }
            case "route" -> {
                List<String> tags = routes(payload);
                payload.release();
                return Mono.just(ByteBufPayload.create(dataOf(String.join(",", tags)), replyRouting(tags)));
            }
            default -> {
                // Echo: rsocket-java writes the received (zero-copy) payload back and releases it.
                return Mono.just(payload);
            }
        }
    }

    @Override
    public Flux<Payload> requestStream(Payload payload) {
        String data = payload.getDataUtf8();
        payload.release();
        streamRequested.set(0);
        streamEmitted.set(0);
        CompletableFuture<Void> cancelled = new CompletableFuture<>();
        streamCancelled = cancelled;
        return Flux.range(0, Integer.MAX_VALUE)
            .doOnRequest(n -> streamRequested.accumulateAndGet(n, JavaResponder::saturatedAdd))
            .map(i -> ByteBufPayload.create(data + i))
            .doOnNext(p -> streamEmitted.incrementAndGet())
            .doOnCancel(() -> cancelled.complete(null));
    }

    @Override
    public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
        CompletableFuture<Void> cancelled = new CompletableFuture<>();
        channelCancelled = cancelled;
        return Flux.from(payloads).doOnCancel(() -> cancelled.complete(null));
    }

    /** The routing tags in the composite metadata of {@code payload}, read with rsocket-java's codecs. */
    static List<String> routes(Payload payload) {
        List<String> tags = new ArrayList<>();
        if (!payload.hasMetadata()) {
            return tags;
        }
        for (CompositeMetadata.Entry entry : new CompositeMetadata(payload.metadata(), false)) {
            if (WellKnownMimeType.MESSAGE_RSOCKET_ROUTING.getString().equals(entry.getMimeType())) {
                for (String tag : new RoutingMetadata(entry.getContent())) {
                    tags.add(tag);
                }
            }
        }
        return tags;
    }

    /** Composite metadata with one routing entry, "reply" followed by {@code tags}, made by rsocket-java. */
    static ByteBuf replyRouting(List<String> tags) {
        List<String> reply = new ArrayList<>();
        reply.add("reply");
        reply.addAll(tags);
        CompositeByteBuf md = ByteBufAllocator.DEFAULT.compositeBuffer();
        RoutingMetadata routing = TaggingMetadataCodec.createRoutingMetadata(ByteBufAllocator.DEFAULT, reply);
        CompositeMetadataCodec.encodeAndAddMetadata(md, ByteBufAllocator.DEFAULT,
            WellKnownMimeType.MESSAGE_RSOCKET_ROUTING, routing.getContent());
        return md;
    }

    static ByteBuf dataOf(String s) {
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer();
        b.writeCharSequence(s, StandardCharsets.UTF_8);
        return b;
    }

    static long saturatedAdd(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }
}
