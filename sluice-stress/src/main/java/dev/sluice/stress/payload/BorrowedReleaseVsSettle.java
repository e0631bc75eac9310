package dev.sluice.stress.payload;

import dev.sluice.core.Payload;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A payload that borrows its frame, released on another thread while the engine settles it: whichever comes
 * first, the frame's reference count ends where it began (the settle's reference, if it took one, is given back
 * by the release, or by the settle itself when the release got there first).
 *
 * <p>r1: the frame's reference count after both; r2: the payload's.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the frame's count is back where it began")
@Outcome(expect = Expect.FORBIDDEN, desc = "the frame leaked a reference or lost one, or a throw")
@State
public class BorrowedReleaseVsSettle {

    private final BorrowedFrame f = new BorrowedFrame();

    @Actor
    public void settle() {
        Payload.endBorrow(f.payload);
    }

    @Actor
    public void release() {
        f.payload.release();
    }

    @Arbiter
    public void after(II_Result r) {
        r.r1 = f.frame.refCnt();
        r.r2 = f.payload.refCnt();
        f.releaseFrame();
    }
}
