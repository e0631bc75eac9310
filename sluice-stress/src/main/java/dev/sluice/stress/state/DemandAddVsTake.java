package dev.sluice.stress.state;

import dev.sluice.core.internal.stream.StreamState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A subscriber's {@code request(5)} ({@code addDemand}) races the event loop taking the demand
 * ({@code takeDemand}) with 3 already pending: no demand is lost or invented, and the flags survive.
 *
 * <p>r1: the demand {@code addDemand} saw before it (0 means it must schedule the loop's work); r2: the demand
 * taken; r3: the demand left; r4: 1 if SUBSCRIBED is still the only flag.
 */
@JCStressTest
@Outcome(id = "3, 8, 0, 1", expect = Expect.ACCEPTABLE, desc = "add first: the loop takes all 8")
@Outcome(id = "0, 3, 5, 1", expect = Expect.ACCEPTABLE, desc = "take first: the add saw 0 and schedules the loop")
@Outcome(expect = Expect.FORBIDDEN, desc = "demand lost or invented, or a flag changed")
@State
public class DemandAddVsTake extends StateHolder {

    public DemandAddVsTake() {
        super(StreamState.SUBSCRIBED | 3);
    }

    @Actor
    public void request(IIII_Result r) {
        r.r1 = (int) StreamState.demand(StreamState.addDemand(STATE, this, 5));
    }

    @Actor
    public void loop(IIII_Result r) {
        r.r2 = (int) StreamState.demand(StreamState.takeDemand(STATE, this));
    }

    @Arbiter
    public void after(IIII_Result r) {
        long s = state;
        r.r3 = (int) StreamState.demand(s);
        r.r4 = (s & ~0xFFFF_FFFFL) == StreamState.SUBSCRIBED ? 1 : 0;
    }
}
