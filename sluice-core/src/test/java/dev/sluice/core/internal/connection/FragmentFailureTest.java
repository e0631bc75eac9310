package dev.sluice.core.internal.connection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.frame.PayloadFrame;
import dev.sluice.frame.RequestResponseFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A request written in fragments whose payload fails to be read part way through (its buffer released under it,
 * say): the fragments already out would leave the peer waiting for the rest, holding them, so the requester ends
 * the stream with a CANCEL, which the peer answers by dropping them. The caller gets the read's failure and the
 * payload is released. A request that fails in its only frame sends nothing, as before. And the other side of it:
 * a responder that receives the CANCEL drops the fragments it held, so a later fragment does not complete them.
 */
class FragmentFailureTest {

    /** Fragment frames above this: 64 bytes less prefix and header leave 55 bytes of data per fragment. */
    private static final int MTU = 64;
    private static final int DATA = 200;

    private final List<Payload> made = new ArrayList<>();
    private EnginePeer peer;

    @AfterEach
    void close() {
        peer.close();
        assertThat(made).allSatisfy(p -> assertThat(p.refCnt()).as("released").isZero());
    }

    @Test
    void aRequestResponseThatFailsAfterItsFirstFragmentIsCancelled() {
        assertCancelledAfterFirstFragment("REQUEST_RESPONSE", p -> peer.requester().requestResponse(p));
    }

    @Test
    void aRequestStreamThatFailsAfterItsFirstFragmentIsCancelled() {
        assertCancelledAfterFirstFragment("REQUEST_STREAM", p -> peer.requester().requestStream(p));
    }

    @Test
    void aRequestChannelThatFailsAfterItsFirstFragmentIsCancelled() {
        assertCancelledAfterFirstFragment("REQUEST_CHANNEL", p -> peer.requester().requestChannel(Flux.just(p)));
    }

    @Test
    void aFireAndForgetThatFailsAfterItsFirstFragmentIsCancelled() {
        assertCancelledAfterFirstFragment("REQUEST_FNF", p -> peer.requester().fireAndForget(p));
    }

    @Test
    void aRequestThatFailsInItsOnlyFrameSendsNothing() {
        peer = EnginePeer.client(MTU);
        List<Throwable> errors = new ArrayList<>();
        peer.requester().requestResponse(payload(new FailingRead(40, 0)))
            .subscribe(Payload::release, errors::add);
        peer.runTasks();

        assertThat(errors).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("read failed"));
        assertThat(peer.written()).isEmpty();
    }

    @Test
    void aResponderDropsTheFragmentsOfARequestCancelledMidWay() {
        List<String> handled = new ArrayList<>();
        peer = EnginePeer.server(new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                handled.add(payload.dataUtf8());
                payload.release();
                return Mono.just(Payload.create("answer"));
            }
        });
        ByteBuf first = PooledByteBufAllocator.DEFAULT.buffer();
        RequestResponseFrame.encode(first, 1, true, null, ascii("first half ".repeat(7)));
        peer.send(first);
        peer.send(PeerFrames.cancel(1));
        ByteBuf last = PooledByteBufAllocator.DEFAULT.buffer();
        PayloadFrame.encode(last, 1, false, false, true, null, ascii("second half"));
        peer.send(last);
        peer.runTasks();

        assertThat(handled).as("requests the handler saw").isEmpty();
        assertThat(peer.written()).isEmpty();
        peer.send(PeerFrames.requestResponse(3, "whole"));
        assertThat(handled).containsExactly("whole");
        assertThat(peer.written()).containsExactly("PAYLOAD 3 N|C data=answer");
    }

    private static ByteBuf ascii(String s) {
        return Unpooled.wrappedBuffer(s.getBytes(StandardCharsets.US_ASCII));
    }

    private void assertCancelledAfterFirstFragment(String requestType,
                                                   Function<Payload, Publisher<?>> request) {
        peer = EnginePeer.client(MTU);
        List<Throwable> errors = new ArrayList<>();
        Flux.from(request.apply(payload(new FailingRead(DATA, 1))))
            .subscribe(v -> { }, errors::add);
        peer.runTasks();

        assertThat(errors).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("read failed"));
        List<String> written = peer.written();
        assertThat(written).hasSize(2);
        assertThat(written.get(0)).startsWith(requestType + " 1 F");
        assertThat(written.get(1)).isEqualTo("CANCEL 1");
        assertThat(peer.isActive(1)).isFalse();
    }

    private Payload payload(ByteBuf data) {
        Payload p = Payload.create(data);
        made.add(p);
        return p;
    }

    /**
     * {@code size} zero bytes whose reads into another buffer fail after {@code allowed} of them, as a buffer
     * released under its payload would. Not backed by an array or an address, so each fragment reads through it.
     */
    private static final class FailingRead extends UnpooledHeapByteBuf {
        private int allowed;

        FailingRead(int size, int allowed) {
            super(ByteBufAllocator.DEFAULT, size, size);
            writeZero(size);
            this.allowed = allowed;
        }

        @Override
        public boolean hasArray() {
            return false;
        }

        @Override
        public ByteBuf getBytes(int index, ByteBuf dst, int dstIndex, int length) {
            read();
            return super.getBytes(index, dst, dstIndex, length);
        }

        @Override
        public ByteBuf getBytes(int index, byte[] dst, int dstIndex, int length) {
            read();
            return super.getBytes(index, dst, dstIndex, length);
        }

        private void read() {
            if (allowed-- <= 0) {
                throw new IllegalStateException("read failed (test)");
            }
        }
    }
}
