package dev.sluice.core.internal.connection;

import dev.sluice.core.Leases;
import dev.sluice.core.RSocket;
import dev.sluice.core.internal.lease.LeaseWait;
import dev.sluice.frame.FrameHeader;
import dev.sluice.frame.LeaseFrame;
import dev.sluice.frame.SetupFrame;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;

/** What the lease tests of the engine share: a leasing client on a fake transport, LEASE frames, frame types. */
final class LeaseTestFrames {

    private LeaseTestFrames() {
    }

    /** A client that asked for leases (and leases nothing itself), its requests waiting for permits as told. */
    static RSocketConnection leasingClient(FakeTransport transport, ConnectionConfig config, boolean strict,
                                           LeaseWait wait) {
        ByteBuf setup = PooledByteBufAllocator.DEFAULT.buffer();
        SetupFrame.encode(setup, true, 60_000, 300_000, null, "application/binary", "application/binary", null,
            null);
        return RSocketConnection.client(transport, config, setup, c -> new RSocket() { },
            (rtt, scheduler) -> Leases.none(), strict, wait);
    }

    static ByteBuf lease(int ttlMillis, int n) {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer();
        LeaseFrame.encode(b, ttlMillis, n, null);
        return b;
    }

    /** The frames' types, in order; the frames are released. */
    static List<Integer> types(List<ByteBuf> frames) {
        List<Integer> out = new ArrayList<>();
        for (ByteBuf f : frames) {
            out.add(FrameHeader.frameType(f, 0));
            f.release();
        }
        return out;
    }
}
