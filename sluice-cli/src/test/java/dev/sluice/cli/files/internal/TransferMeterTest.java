package dev.sluice.cli.files.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TransferMeterTest {

    private static final long MS = 1_000_000L;
    private static final long S = 1_000_000_000L;
    /** The start of every meter here: an arbitrary origin, as System.nanoTime has. */
    private static final long T0 = 123_456_789L;

    @Test
    void aSteadyRateIsMeasuredExactly() {
        TransferMeter m = new TransferMeter(T0);
        m.total(1_000_000_000);

        for (int tick = 1; tick <= 10; tick++) {
            m.add(20_000_000); // 20 MB per 200 ms = 100 MB/s
            assertThat(m.sample(T0 + tick * 200 * MS)).as("tick %d", tick).isEqualTo(100e6);
        }

        assertThat(m.bytes()).isEqualTo(200_000_000);
        assertThat(m.elapsedNanos(T0 + 2 * S)).isEqualTo(2 * S);
        assertThat(m.etaNanos()).as("800 MB left at 100 MB/s").isEqualTo(8 * S);
    }

    @Test
    void aChangeOfRateIsFollowedWithTheTimeConstantWhateverTheSamplingInterval() {
        // 10 s at 100 MB/s, then 50 MB/s: after t more seconds the rate is 50 + 50 exp(-t / 3 s) MB/s.
        TransferMeter fine = new TransferMeter(T0);
        TransferMeter coarse = new TransferMeter(T0);
        for (long ms = 100; ms <= 16_000; ms += 100) {
            long bytes = ms <= 10_000 ? 10_000_000 : 5_000_000; // per 100 ms
            fine.add(bytes);
            coarse.add(bytes);
            fine.sample(T0 + ms * MS);
            if (ms % 1000 == 0) {
                coarse.sample(T0 + ms * MS);
            }
            if (ms > 10_000 && ms % 1000 == 0) {
                double expected = 50e6 + 50e6 * Math.exp(-(ms - 10_000) / 3000.0);
                assertThat(fine.rate()).as("sampled every 100 ms, at %d ms", ms).isCloseTo(expected, within(1.0));
                assertThat(coarse.rate()).as("sampled every s, at %d ms", ms).isCloseTo(expected, within(1.0));
            }
        }
    }

    @Test
    void theFirstSampleTakesTheAverageSinceTheStart() {
        TransferMeter m = new TransferMeter(T0);
        m.add(3_000_000);

        assertThat(m.rate()).as("before any sample").isNegative();
        assertThat(m.sample(T0 + 3 * S)).isEqualTo(1e6);
    }

    @Test
    void aSampleThatSeesNoTimePassChangesNothing() {
        TransferMeter m = new TransferMeter(T0);
        m.add(1_000);
        m.sample(T0 + S);
        m.add(1_000_000);

        assertThat(m.sample(T0 + S)).isEqualTo(1_000.0);
        assertThat(m.sample(T0)).isEqualTo(1_000.0);
    }

    @Test
    void theTimeLeftIsUnknownWithoutATotalOrARate() {
        TransferMeter m = new TransferMeter(T0);
        assertThat(m.etaNanos()).as("no total").isEqualTo(-1);

        m.total(100);
        assertThat(m.etaNanos()).as("no sample yet").isEqualTo(-1);

        m.sample(T0 + S);
        assertThat(m.etaNanos()).as("a rate of zero").isEqualTo(-1);

        m.add(100);
        assertThat(m.etaNanos()).as("all there").isZero();
        m.add(1);
        assertThat(m.etaNanos()).as("more than announced").isZero();
    }
}
