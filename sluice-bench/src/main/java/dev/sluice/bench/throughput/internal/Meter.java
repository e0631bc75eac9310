package dev.sluice.bench.throughput.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counts messages as they are handled: written from the I/O thread(s), read once a second by the reporter.
 * Thread-safe and allocation-free after construction (a {@link LongAdder}, which costs one uncontended CAS per
 * update when, as here, one thread does nearly all the counting).
 */
public final class Meter {

    private final LongAdder count = new LongAdder();

    /** Counts one message. */
    public void increment() {
        count.increment();
    }

    /** Counts {@code n} messages, n &ge; 0. */
    public void add(long n) {
        count.add(n);
    }

    /** Messages counted so far. */
    public long total() {
        return count.sum();
    }
}
