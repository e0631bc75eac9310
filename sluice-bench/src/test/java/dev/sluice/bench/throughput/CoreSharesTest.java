package dev.sluice.bench.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CoreSharesTest {

    private final AtomicLong wall = new AtomicLong(5_000_000_000L);
    private final AtomicLong server = new AtomicLong(40_000_000_000L);
    private final AtomicLong client = new AtomicLong(30_000_000_000L);
    private final CoreShares.Meter meter = new CoreShares.Meter(server::get, client::get, wall::get);

    /** One measured second: the server used {@code serverMs} of CPU, the client {@code clientMs}. */
    private void second(long serverMs, long clientMs) {
        wall.addAndGet(1_000_000_000L);
        server.addAndGet(serverMs * 1_000_000L);
        client.addAndGet(clientMs * 1_000_000L);
        meter.second();
    }

    @Test
    void sharesCountOnlyTheTimeBetweenTheFirstSecondsLineAndTheLast() {
        // The first line marks where measuring starts: what the JVMs used before it (warm-up) does not count.
        second(1000, 1000);
        second(870, 950);
        second(890, 970);
        CoreShares shares = meter.shares();
        assertThat(shares.server()).isCloseTo(0.88, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(shares.client()).isCloseTo(0.96, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(shares.text()).isEqualTo("server 88% · client 96%");
    }

    @Test
    void noSharesBeforeTwoLines() {
        assertThat(meter.shares()).isNull();
        second(900, 900);
        assertThat(meter.shares()).isNull();
        second(900, 900);
        assertThat(meter.shares()).isNotNull();
    }

    @Test
    void noSharesWhenAProcessCannotSayItsCpuTime() {
        CoreShares.Meter unknown = new CoreShares.Meter(() -> -1, client::get, wall::get);
        for (int i = 0; i < 3; i++) {
            wall.addAndGet(1_000_000_000L);
            unknown.second();
        }
        assertThat(unknown.shares()).isNull();
    }
}
