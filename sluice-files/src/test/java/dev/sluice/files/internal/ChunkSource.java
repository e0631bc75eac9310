package dev.sluice.files.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;
import reactor.core.publisher.Flux;

/**
 * A source of pooled {@code ByteBuf} chunks with reproducible content that remembers every chunk it emitted and
 * whether it was cancelled, so tests can check that the writer released them all. Emits synchronously on request,
 * as fast as demand allows; its {@code fused} sources instead fuse synchronously (Reactor's {@code SYNC}), so the
 * writer polls their chunks and requests nothing. Thread-safe.
 */
final class ChunkSource {

    final List<ByteBuf> emitted = new CopyOnWriteArrayList<>();
    final AtomicBoolean cancelled = new AtomicBoolean();
    /** The demand the source was given: none when it fused. */
    final AtomicLong requested = new AtomicLong();

    /** The content of chunk {@code index} of {@code size} bytes. */
    static byte[] content(int index, int size) {
        byte[] b = new byte[size];
        new SplittableRandom(index).nextBytes(b);
        return b;
    }

    private ByteBuf chunk(int index, int size) {
        ByteBuf b = ByteBufAllocator.DEFAULT.ioBuffer(size).writeBytes(content(index, size));
        emitted.add(b);
        return b;
    }

    /** {@code count} chunks, chunk {@code i} of {@code sizeOf(i)} bytes, emitted on request (fusion is hidden). */
    Flux<ByteBuf> finite(int count, IntUnaryOperator sizeOf) {
        return fusedFinite(count, sizeOf).hide();
    }

    /** The chunks of {@link #finite}, from a source that fuses synchronously. */
    Flux<ByteBuf> fusedFinite(int count, IntUnaryOperator sizeOf) {
        return Flux.range(0, count).doOnRequest(requested::addAndGet).map(i -> chunk(i, sizeOf.applyAsInt(i)))
                .doOnCancel(() -> cancelled.set(true));
    }

    /** Chunks of {@code size} bytes without end, emitted on request (fusion is hidden). */
    Flux<ByteBuf> endless(int size) {
        return fusedEndless(size).hide();
    }

    /** The chunks of {@link #endless}, from a source that fuses synchronously. */
    Flux<ByteBuf> fusedEndless(int size) {
        return Flux.<ByteBuf, Integer>generate(() -> 0, (i, sink) -> {
            sink.next(chunk(i, size));
            return i + 1;
        }).doOnRequest(requested::addAndGet).doOnCancel(() -> cancelled.set(true));
    }

    /** The concatenated content of the first {@code count} chunks. */
    static byte[] expected(int count, IntUnaryOperator sizeOf) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            out.writeBytes(content(i, sizeOf.applyAsInt(i)));
        }
        return out.toByteArray();
    }

    /** How many emitted chunks are still unreleased. */
    long live() {
        return emitted.stream().filter(b -> b.refCnt() > 0).count();
    }
}
