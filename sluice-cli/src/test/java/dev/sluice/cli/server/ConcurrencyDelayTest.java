package dev.sluice.cli.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConcurrencyDelayTest {

    private static final long MS = 1_000_000L;

    @Test
    void eachRequestFallsInItsBracket() {
        ConcurrencyDelay d = ConcurrencyDelay.parse(ConcurrencyDelay.DEFAULT);
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 1000; i++) {
            assertThat(d.delayNanos(1, r)).isBetween(0L, 2 * MS);
            assertThat(d.delayNanos(10, r)).isBetween(0L, 2 * MS);
            assertThat(d.delayNanos(11, r)).isBetween(2 * MS, 5 * MS);
            assertThat(d.delayNanos(50, r)).isBetween(2 * MS, 5 * MS);
            assertThat(d.delayNanos(51, r)).isBetween(5 * MS, 20 * MS);
            assertThat(d.delayNanos(120, r)).isBetween(5 * MS, 20 * MS);
            assertThat(d.delayNanos(121, r)).isBetween(20 * MS, 5000 * MS);
            assertThat(d.delayNanos(1_000_000, r)).isBetween(20 * MS, 5000 * MS);
        }
        assertThat(d).hasToString(ConcurrencyDelay.DEFAULT);
    }

    @Test
    void badTablesAreRefusedWithTheReason() {
        assertThatThrownBy(() -> ConcurrencyDelay.parse("10 => 2; 50 => 5"))
            .hasMessage("the last concurrency-delay entry must have no bound ('=> MILLIS'), got '50 => 5'");
        assertThatThrownBy(() -> ConcurrencyDelay.parse("=> 2; 50 => 5; => 7"))
            .hasMessage("concurrency-delay entry '=> 2' has no bound but is not the last");
        assertThatThrownBy(() -> ConcurrencyDelay.parse("50 => 2; 10 => 5; => 7"))
            .hasMessage("concurrency-delay bounds must increase: '10 => 5' follows 50");
        assertThatThrownBy(() -> ConcurrencyDelay.parse("ten => 2; => 7"))
            .hasMessage("concurrency-delay bound must be a whole number >= 0, got 'ten' in 'ten => 2'");
        assertThatThrownBy(() -> ConcurrencyDelay.parse("10 2; => 7"))
            .hasMessageStartingWith("concurrency-delay entry '10 2' lacks '=>'");
        assertThatThrownBy(() -> ConcurrencyDelay.parse(" ")).hasMessageStartingWith("empty concurrency-delay");
        assertThat(ConcurrencyDelay.parse("5 => 1; => 9;")).hasToString("5 => 1; => 9");
    }

    @Test
    void theWindowCountStartsAgainEachSecond() {
        AtomicLong now = new AtomicLong(0);
        SaturableService s = new SaturableService(ConcurrencyDelay.parse("2 => 1; => 1000"), "x", now::get);
        assertThat(s.nextDelayNanos()).isLessThanOrEqualTo(MS);
        assertThat(s.nextDelayNanos()).isLessThanOrEqualTo(MS);
        assertThat(s.nextDelayNanos()).as("third in the window").isGreaterThanOrEqualTo(MS);
        now.set(1000 * MS);
        assertThat(s.nextDelayNanos()).as("a new window").isLessThanOrEqualTo(MS);
        now.set(3500 * MS);
        assertThat(s.nextDelayNanos()).as("windows skipped while idle").isLessThanOrEqualTo(MS);
        assertThat(s.nextDelayNanos()).isLessThanOrEqualTo(MS);
        now.set(3999 * MS);
        assertThat(s.nextDelayNanos()).as("still the window that began at 3000 ms").isGreaterThanOrEqualTo(MS);
    }
}
