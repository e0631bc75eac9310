package dev.sluice.stress.payload;

import dev.sluice.core.Payload;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A frame's buffer and a payload borrowing it, as the engine makes one for a handler: the buffer has one reference
 * (the transport's) and the payload none until it is settled.
 *
 * <p>The payload is made on a thread of its own: the actors are thus never its maker, so each release and retain
 * takes the compare-and-set that orders it against the settle (the maker's lone-owner shortcut cannot race a
 * settle, which its maker runs after the handler returns).
 */
final class BorrowedFrame {

    private static final ExecutorService MAKER = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "payload-maker");
        t.setDaemon(true);
        return t;
    });

    final ByteBuf frame = Unpooled.directBuffer(16).writeZero(16);
    final Payload payload;

    BorrowedFrame() {
        try {
            payload = MAKER.submit(() -> Payload.borrowRegions(frame, -1, -1, 0, 4)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Gives back the frame's remaining references, so that a failed outcome does not leak direct memory. */
    void releaseFrame() {
        int left = frame.refCnt();
        if (left > 0) {
            frame.release(left);
        }
    }
}
