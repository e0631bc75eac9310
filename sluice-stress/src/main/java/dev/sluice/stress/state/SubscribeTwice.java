package dev.sluice.stress.state;

import dev.sluice.core.internal.stream.StreamState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZ_Result;

/**
 * Two subscribers race {@code markSubscribed}: exactly one gets the stream. r1, r2: whether each actor's call
 * found SUBSCRIBED unset (it won and keeps the subscriber; the loser is refused with an error).
 */
@JCStressTest
@Outcome(id = {"true, false", "false, true"}, expect = Expect.ACCEPTABLE, desc = "one subscriber, one refused")
@Outcome(id = "true, true", expect = Expect.FORBIDDEN, desc = "two subscribers on one stream")
@Outcome(id = "false, false", expect = Expect.FORBIDDEN, desc = "both refused")
@State
public class SubscribeTwice extends StateHolder {

    public SubscribeTwice() {
        super(0);
    }

    @Actor
    public void first(ZZ_Result r) {
        r.r1 = !StreamState.isSubscribed(StreamState.markSubscribed(STATE, this));
    }

    @Actor
    public void second(ZZ_Result r) {
        r.r2 = !StreamState.isSubscribed(StreamState.markSubscribed(STATE, this));
    }
}
