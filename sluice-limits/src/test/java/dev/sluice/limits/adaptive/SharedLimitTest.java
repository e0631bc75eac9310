package dev.sluice.limits.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/** One limit for several connections: split by use, fed their summed use, one drop per overload. */
class SharedLimitTest {

    private static final long MS = 1_000_000L;

    @Test
    void eachShareGetsAQuarterEvenlyAndTheRestByWhatItTook() {
        SharedLimit shared = new SharedLimit(FixedLimit.of(100), 0, 0);
        SharedLimit.Share a = shared.join();
        SharedLimit.Share b = shared.join();
        assertThat(a.limit()).isEqualTo(50);             // nothing taken yet: even
        a.onSample(1 * MS, 5 * MS, 90, false);
        b.onSample(2 * MS, 5 * MS, 10, false);
        assertThat(a.limit()).isEqualTo(80);             // 100 * (0.125 + 0.75 * 0.9)
        assertThat(b.limit()).isEqualTo(20);             // 100 * (0.125 + 0.75 * 0.1)
        a.leave();
        assertThat(b.limit()).isEqualTo(100);
        assertThat(a.limit()).isEqualTo(1);              // gone: nothing
        assertThat(shared.shares()).isEqualTo(1);
    }

    @Test
    void theLimitHearsTheSharesSummedUseAtMostOncePerIntervalAndOneDropPerOverload() {
        Recording limit = new Recording();
        SharedLimit shared = new SharedLimit(limit, 25 * MS, 1_000 * MS);
        SharedLimit.Share a = shared.join();
        SharedLimit.Share b = shared.join();
        a.onSample(0, 5 * MS, 60, false);
        b.onSample(10 * MS, 5 * MS, 50, false);          // within 25 ms of the last: not passed on
        a.onSample(30 * MS, 5 * MS, 70, false);
        assertThat(limit.samples).containsExactly("60", "120");
        b.onSample(40 * MS, 30 * MS, 55, true);          // a drop passes at once, with the sum
        a.onSample(45 * MS, 30 * MS, 70, true);          // the same overload, seen by the other connection
        a.onSample(1_100 * MS, 30 * MS, 65, true);       // a second later: a new one
        assertThat(limit.samples).containsExactly("60", "120", "125 dropped", "120 dropped");
    }

    @Test
    void settingsAreChecked() {
        assertThatThrownBy(() -> new SharedLimit(null, 0, 0))
            .hasMessage("limit must not be null and the intervals >= 0, got null, 0, 0");
        assertThatThrownBy(() -> new SharedLimit(FixedLimit.of(1), 0, 0).join().onChange(l -> { }))
            .isInstanceOf(UnsupportedOperationException.class);
    }

    private static final class Recording implements Limit {
        final List<String> samples = new ArrayList<>();

        @Override
        public void onSample(long nowNanos, long rttNanos, int inFlight, boolean dropped) {
            samples.add(inFlight + (dropped ? " dropped" : ""));
        }

        @Override
        public int limit() {
            return 100;
        }

        @Override
        public void onChange(IntConsumer listener) {
        }
    }
}
