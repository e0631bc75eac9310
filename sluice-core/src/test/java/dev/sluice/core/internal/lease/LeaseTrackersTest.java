package dev.sluice.core.internal.lease;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The lease arithmetic on a fixed time grid (nanoseconds). */
class LeaseTrackersTest {

    private static final long MS = 1_000_000L;
    private static final long T0 = 5_000 * MS;

    @Test
    void availabilityFollowsTheLease() {
        RequesterLeaseTracker r = new RequesterLeaseTracker();
        assertThat(r.availability(T0)).as("before the first lease").isEqualTo(0.0);
        r.onLease(T0, 1000, 10);
        assertThat(r.availability(T0)).as("fresh lease of 10").isEqualTo(1.0);
        assertThat(r.use(T0 + MS)).isNull();
        assertThat(r.availability(T0 + MS)).as("after one request").isEqualTo(0.9);
        assertThat(r.availability(T0 + 999 * MS)).as("just before the ttl").isEqualTo(0.9);
        assertThat(r.availability(T0 + 1000 * MS)).as("at the ttl").isEqualTo(0.0);
        assertThat(r.use(T0 + 1000 * MS)).isEqualTo("lease_expired");
    }

    @Test
    void exhaustionAndReplacement() {
        RequesterLeaseTracker r = new RequesterLeaseTracker();
        r.onLease(T0, 1000, 2);
        assertThat(r.use(T0)).isNull();
        assertThat(r.use(T0)).isNull();
        assertThat(r.use(T0)).isEqualTo("lease_exhausted");
        assertThat(r.availability(T0)).isEqualTo(0.0);
        r.onLease(T0 + 10 * MS, 500, 4);
        assertThat(r.availability(T0 + 10 * MS)).as("a new lease replaces the old one").isEqualTo(1.0);
        assertThat(r.availability(T0 + 510 * MS)).as("its ttl counts from its reception").isEqualTo(0.0);
    }

    @Test
    void zeroValuedLeasesStopEverythingWithoutDividingByZero() {
        RequesterLeaseTracker r = new RequesterLeaseTracker();
        r.onLease(T0, 1000, 0);
        assertThat(r.availability(T0)).isEqualTo(0.0);
        assertThat(r.use(T0)).isEqualTo("lease_exhausted");
        r.onLease(T0, 0, 10);
        assertThat(r.availability(T0)).isEqualTo(0.0);
        assertThat(r.use(T0)).isEqualTo("lease_expired");

        ResponderLeaseTracker s = new ResponderLeaseTracker();
        s.onLeaseSent(T0, 1000, 0);
        assertThat(s.tryAcquire(T0)).isEqualTo("lease_exhausted");
        s.onLeaseSent(T0, 0, 5);
        assertThat(s.tryAcquire(T0)).isEqualTo("lease_expired");
    }

    @Test
    void responderCountsOnePermitPerRequest() {
        ResponderLeaseTracker s = new ResponderLeaseTracker();
        assertThat(s.tryAcquire(T0)).as("nothing before the first lease").isEqualTo("lease_expired");
        s.onLeaseSent(T0, 1000, 3);
        assertThat(s.tryAcquire(T0 + MS)).isNull();
        assertThat(s.tryAcquire(T0 + 2 * MS)).isNull();
        assertThat(s.tryAcquire(T0 + 3 * MS)).isNull();
        assertThat(s.tryAcquire(T0 + 4 * MS)).isEqualTo("lease_exhausted");
        assertThat(s.tryAcquire(T0 + 1000 * MS)).isEqualTo("lease_expired");
        assertThat(s.accepted()).isEqualTo(3);
        assertThat(s.rejected()).isEqualTo(3);
        assertThat(s.accepted() + s.rejected()).isEqualTo(6);
    }

    @Test
    void ttlArithmeticSurvivesNanoTimeWrap() {
        long nearMax = Long.MAX_VALUE - 100 * MS;
        RequesterLeaseTracker r = new RequesterLeaseTracker();
        r.onLease(nearMax, 1000, 10);
        assertThat(r.availability(nearMax + 500 * MS)).as("past Long.MAX_VALUE, still within ttl").isEqualTo(1.0);
        assertThat(r.availability(nearMax + 1000 * MS)).isEqualTo(0.0);
    }
}
