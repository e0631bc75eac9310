package dev.sluice.stress.state;

import dev.sluice.core.internal.stream.StreamState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Two {@code request(n)} race one below the bound: the demand saturates at "unbounded" (read back as
 * {@code Long.MAX_VALUE}) whichever CAS retries, and never carries into the flag bits. r1: unbounded at the end;
 * r2: SUBSCRIBED is still the only flag.
 */
@JCStressTest
@Outcome(id = "true, true", expect = Expect.ACCEPTABLE, desc = "saturated, flags intact")
@Outcome(expect = Expect.FORBIDDEN, desc = "demand wrapped or spilled into the flags")
@State
public class DemandSaturates extends StateHolder {

    public DemandSaturates() {
        super(StreamState.SUBSCRIBED | (StreamState.UNBOUNDED - 1));
    }

    @Actor
    public void one(ZZ_Result r) {
        StreamState.addDemand(STATE, this, 1);
    }

    @Actor
    public void huge(ZZ_Result r) {
        StreamState.addDemand(STATE, this, Long.MAX_VALUE);
    }

    @Arbiter
    public void after(ZZ_Result r) {
        long s = state;
        r.r1 = StreamState.demand(s) == Long.MAX_VALUE;
        r.r2 = (s & ~0xFFFF_FFFFL) == StreamState.SUBSCRIBED;
    }
}
