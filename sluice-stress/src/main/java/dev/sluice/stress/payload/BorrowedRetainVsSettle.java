package dev.sluice.stress.payload;

import dev.sluice.core.Payload;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A payload that borrows its frame, retained on another thread (handed on, say) while the engine settles it: the
 * payload is held either way, so the settle takes its one reference to the frame, and releasing the payload twice
 * afterwards gives it back.
 *
 * <p>r1: the frame's reference count after both; r2: the payload's; r3: the frame's after the payload's two
 * releases.
 */
@JCStressTest
@Outcome(id = "2, 2, 1", expect = Expect.ACCEPTABLE, desc = "settled: the payload holds one frame reference")
@Outcome(expect = Expect.FORBIDDEN, desc = "the frame leaked a reference or lost one, or a throw")
@State
public class BorrowedRetainVsSettle {

    private final BorrowedFrame f = new BorrowedFrame();

    @Actor
    public void settle() {
        Payload.endBorrow(f.payload);
    }

    @Actor
    public void retain() {
        f.payload.retain();
    }

    @Arbiter
    public void after(III_Result r) {
        r.r1 = f.frame.refCnt();
        r.r2 = f.payload.refCnt();
        f.payload.release();
        f.payload.release();
        r.r3 = f.frame.refCnt();
        f.releaseFrame();
    }
}
