package dev.sluice.core.internal.connection;

import static dev.sluice.core.internal.connection.LeaseTestFrames.lease;
import static dev.sluice.core.internal.connection.LeaseTestFrames.types;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.core.internal.lease.LeaseWait;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/**
 * A leasing requester's requests wait for a lease permit instead of going out without one: in order, bounded in
 * number and in time, refused locally beyond either bound, and each payload released exactly once whatever ends
 * the wait (a permit, the bound, a cancel, the connection's close). Virtual time: the test moves the connection's
 * clock and the event loop's together.
 */
class LeaseWaitTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong(1_000_000 * MS);
    private final ConnectionConfig config = new ConnectionConfig(0, 1 << 20, 1000, Duration.ofSeconds(60),
        Duration.ofSeconds(300), now::get);
    private final FakeTransport transport = new FakeTransport();
    private RSocketConnection connection;

    @BeforeEach
    void freeze() {
        transport.freezeTime();
    }

    @AfterEach
    void close() {
        if (connection != null) {
            connection.dispose();
        }
        transport.runPendingTasks();
        transport.releaseWritten();
    }

    private void connect(int maxPending, Duration maxWait) {
        connection = LeaseTestFrames.leasingClient(transport, config, false, new LeaseWait(maxPending, maxWait));
        transport.takeWritten().forEach(ByteBuf::release);
    }

    private void advance(long millis) {
        now.addAndGet(millis * MS);
        transport.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
    }

    private static ByteBuf data() {
        return Unpooled.copiedBuffer(new byte[] {1, 2, 3});
    }

    @Test
    void aRequestMadeBeforeTheFirstLeaseGoesOutWhenItArrives() {
        connect(256, Duration.ofSeconds(1));
        AtomicReference<Throwable> error = new AtomicReference<>();
        connection.requester().requestResponse(Payload.create("x")).subscribe(Payload::release, error::set);
        transport.runPendingTasks();
        assertThat(transport.takeWritten()).as("nothing without a lease").isEmpty();
        transport.receive(lease(1000, 10));
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.REQUEST_RESPONSE);
        assertThat(error.get()).isNull();
        assertThat(connection.availability()).as("the permit was taken").isEqualTo(0.9);
    }

    @Test
    void everyInteractionWaitsAndTheyGoInTheOrderMade() {
        connect(256, Duration.ofSeconds(1));
        connection.requester().requestResponse(Payload.create("rr")).subscribe(Payload::release, e -> { });
        connection.requester().requestStream(Payload.create("rs")).subscribe(Payload::release, e -> { });
        connection.requester().requestChannel(Flux.just(Payload.create("rc"))).subscribe(Payload::release, e -> { });
        connection.requester().fireAndForget(Payload.create("fnf")).subscribe(null, e -> { });
        transport.runPendingTasks();
        assertThat(transport.takeWritten()).isEmpty();
        transport.receive(lease(1000, 4));
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.REQUEST_RESPONSE,
            FrameType.REQUEST_STREAM, FrameType.REQUEST_CHANNEL, FrameType.PAYLOAD, FrameType.REQUEST_FNF);
        assertThat(connection.availability()).isEqualTo(0.0);
    }

    @Test
    void aLeaseReleasesAsManyAsItAllowsAndTheRestWaitForTheNext() {
        connect(256, Duration.ofSeconds(1));
        for (int i = 0; i < 3; i++) {
            connection.requester().requestResponse(Payload.create("x" + i)).subscribe(Payload::release, e -> { });
        }
        transport.runPendingTasks();
        transport.receive(lease(1000, 2));
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.REQUEST_RESPONSE,
            FrameType.REQUEST_RESPONSE);
        advance(500);
        transport.receive(lease(1000, 2));
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.REQUEST_RESPONSE);
        assertThat(connection.availability()).isEqualTo(0.5);
    }

    @Test
    void beyondMaxPendingARequestIsRefusedAtOnceAndNotSent() {
        connect(2, Duration.ofSeconds(1));
        ByteBuf third = data();
        AtomicReference<Throwable> error = new AtomicReference<>();
        connection.requester().requestResponse(Payload.create("a")).subscribe(Payload::release, e -> { });
        connection.requester().requestResponse(Payload.create("b")).subscribe(Payload::release, e -> { });
        connection.requester().requestResponse(Payload.create(third)).subscribe(Payload::release, error::set);
        transport.runPendingTasks();
        assertThat(error.get()).isInstanceOf(RejectedException.class)
            .hasMessage("lease_exhausted (2 requests already wait for a lease permit: not sent)");
        assertThat(third.refCnt()).as("released once").isZero();
        transport.receive(lease(1000, 5));
        assertThat(types(transport.takeWritten())).as("the two that waited").hasSize(2);
    }

    @Test
    void aRequestWhoseWaitRunsOutIsRefusedAndReleased() {
        connect(256, Duration.ofMillis(200));
        ByteBuf body = data();
        AtomicReference<Throwable> error = new AtomicReference<>();
        connection.requester().requestStream(Payload.create(body)).subscribe(Payload::release, error::set);
        transport.runPendingTasks();
        advance(199);
        assertThat(error.get()).as("still waiting").isNull();
        advance(1);
        assertThat(error.get()).isInstanceOf(RejectedException.class)
            .hasMessage("lease_exhausted (no lease permit within 200 ms: not sent)");
        assertThat(body.refCnt()).isZero();
        transport.receive(lease(1000, 5));
        assertThat(transport.takeWritten()).as("nothing sent later").isEmpty();
        assertThat(connection.availability()).as("no permit taken").isEqualTo(1.0);
    }

    @Test
    void aCancelledWaitingRequestIsNeverSentAndTakesNoPermit() {
        connect(256, Duration.ofSeconds(1));
        ByteBuf rr = data();
        ByteBuf rs = data();
        ByteBuf rc = data();
        ByteBuf fnf = data();
        Disposable[] calls = {
            connection.requester().requestResponse(Payload.create(rr)).subscribe(Payload::release),
            connection.requester().requestStream(Payload.create(rs)).subscribe(Payload::release),
            connection.requester().requestChannel(Flux.just(Payload.create(rc))).subscribe(Payload::release),
            connection.requester().fireAndForget(Payload.create(fnf)).subscribe(null, e -> { })};
        transport.runPendingTasks();
        for (Disposable call : calls) {
            call.dispose();
        }
        transport.runPendingTasks();
        transport.receive(lease(1000, 10));
        assertThat(transport.takeWritten()).isEmpty();
        assertThat(connection.availability()).isEqualTo(1.0);
        for (ByteBuf b : List.of(rr, rs, rc, fnf)) {
            assertThat(b.refCnt()).as("each payload released once").isZero();
        }
    }

    @Test
    void aClosingConnectionFailsItsWaitingRequests() {
        connect(256, Duration.ofSeconds(1));
        ByteBuf rr = data();
        ByteBuf rc = data();
        AtomicReference<Throwable> rrError = new AtomicReference<>();
        AtomicReference<Throwable> rcError = new AtomicReference<>();
        connection.requester().requestResponse(Payload.create(rr)).subscribe(Payload::release, rrError::set);
        connection.requester().requestChannel(Flux.just(Payload.create(rc))).subscribe(Payload::release,
            rcError::set);
        transport.runPendingTasks();
        connection.dispose();
        transport.runPendingTasks();
        assertThat(rrError.get()).isInstanceOf(ConnectionClosedException.class);
        assertThat(rcError.get()).isInstanceOf(ConnectionClosedException.class);
        assertThat(rr.refCnt()).isZero();
        assertThat(rc.refCnt()).isZero();
    }

    @Test
    void aChannelWhoseCallerCompletedWhileItsFirstPayloadWaitedSendsBoth() {
        connect(256, Duration.ofSeconds(1));
        connection.requester().requestChannel(Flux.just(Payload.create("only"))).subscribe(Payload::release, e -> { });
        transport.runPendingTasks();
        transport.receive(lease(1000, 1));
        List<ByteBuf> written = transport.takeWritten();
        assertThat(types(written)).containsExactly(FrameType.REQUEST_CHANNEL, FrameType.PAYLOAD);
    }

    @Test
    void withoutWaitingARequestStillGoesOutWithoutAPermit() {
        connection = LeaseTestFrames.leasingClient(transport, config, false, LeaseWait.NONE);
        transport.takeWritten().forEach(ByteBuf::release);
        connection.requester().requestResponse(Payload.create("x")).subscribe(Payload::release, e -> { });
        transport.runPendingTasks();
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.REQUEST_RESPONSE);
    }
}
