package dev.sluice.core.internal.connection;

import static dev.sluice.core.internal.connection.LeaseTestFrames.lease;
import static dev.sluice.core.internal.connection.LeaseTestFrames.types;
import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.exceptions.ConnectionClosedException;
import dev.sluice.core.internal.lease.LeaseWait;
import dev.sluice.frame.FrameType;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests made during a read burst start when it ends, one after the other; a start whose failure closes the
 * connection (here its subscriber disposes it) runs the remaining starts from within its own, and they then find
 * the connection closed. Every request ends exactly once, and the burst's end does not run a start twice or trip
 * over one already run.
 */
class CloseDuringDeferredStartsTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
    private final ConnectionConfig config = new ConnectionConfig(0, 1 << 20, 1000, Duration.ofSeconds(60),
        Duration.ofSeconds(300), now::get);
    private final FakeTransport transport = new FakeTransport();
    private final List<String> ended = new ArrayList<>();
    private RSocketConnection connection;

    @BeforeEach
    void connect() {
        transport.freezeTime();
        // A strict requester: a request without a lease permit fails where it starts, never sent.
        connection = LeaseTestFrames.leasingClient(transport, config, true, LeaseWait.NONE);
        transport.takeWritten().forEach(ByteBuf::release);
    }

    @AfterEach
    void close() {
        connection.dispose();
        transport.runPendingTasks();
        transport.releaseWritten();
    }

    @Test
    void aStartThatClosesTheConnectionEndsTheStartsAfterItOnceEach() {
        Connection requester = connection.requester();
        transport.receive(lease(1000, 2));
        requester.requestResponse(Payload.create("first")).subscribe(answer -> {
            answer.release();
            // Made while the answer is read: all three start when the read ends, in this order.
            request(requester, "second");
            requester.requestResponse(Payload.create("third")).subscribe(Payload::release, e -> {
                ended.add("third: " + e.getMessage());
                connection.dispose();
            });
            request(requester, "fourth");
            request(requester, "fifth");
        }, e -> ended.add("first: " + e));
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.REQUEST_RESPONSE);

        transport.receive(PeerFrames.nextComplete(1, "answer"));

        // "second" took the lease's last permit and went out; "third" found none and closed the connection.
        assertThat(types(transport.takeWritten())).containsExactly(FrameType.REQUEST_RESPONSE);
        assertThat(ended).hasSize(4);
        assertThat(ended.get(0)).startsWith("third: lease_exhausted");
        assertThat(ended.subList(1, 4)).containsExactlyInAnyOrder(
            "second: " + ConnectionClosedException.class.getSimpleName(),
            "fourth: " + ConnectionClosedException.class.getSimpleName(),
            "fifth: " + ConnectionClosedException.class.getSimpleName());
    }

    private void request(Connection requester, String data) {
        requester.requestResponse(Payload.create(data)).subscribe(Payload::release,
            e -> ended.add(data + ": " + e.getClass().getSimpleName()));
    }
}
