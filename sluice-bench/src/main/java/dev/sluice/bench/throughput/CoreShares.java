package dev.sluice.bench.throughput;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * How busy each side of a cell was over its measured seconds: the server's and the client's CPU time (every thread
 * of the JVM, all pinned to one core) over the wall time, 1.0 = the whole core.
 *
 * <p>Why a report shows it: a closed loop's figure is a stack's capacity only if a side ran out of core. A cell whose
 * two sides both stay below {@link #BUSY} of their cores was waiting — on the window of requests in flight, on the
 * other side's turn — and its figure says more about the harness's settings than about the stack; against such a
 * cell a ratio flatters whoever is compared with it.
 *
 * @param server the server's share of its core
 * @param client the client's share of its core
 */
record CoreShares(double server, double client) {

    /** Below this share on both sides, a closed loop was waiting rather than working. */
    static final double BUSY = 0.90;

    /**
     * Whether both sides stayed below {@link #BUSY}: then neither ran out of core, and the cell's figure is less than
     * its stack can carry (a closed loop bound by its cores keeps at least one side near 100%: Sluice's sides read
     * 88-97%, the raw-Netty floor's 93-99% once enough requests are in flight, and 80-89% at 4 B with 512).
     */
    boolean waited() {
        return server < BUSY && client < BUSY;
    }

    /** {@code server 87% · client 95%}. */
    String text() {
        return String.format(Locale.ROOT, "server %.0f%% · client %.0f%%", server * 100, client * 100);
    }

    /** Each side's median share over a cell's finished runs that measured it; null if none did. */
    static CoreShares medianOf(List<CellResult> runs) {
        List<CoreShares> measured = runs == null ? List.of()
            : runs.stream().filter(r -> r.ok() && r.cores() != null).map(CellResult::cores).toList();
        if (measured.isEmpty()) {
            return null;
        }
        return new CoreShares(BenchReport.median(measured.stream().mapToDouble(CoreShares::server).toArray()),
            BenchReport.median(measured.stream().mapToDouble(CoreShares::client).toArray()));
    }

    /**
     * What a ratio of {@code ours} over {@code peer} must add when one of the two cells waited ({@link #waited}):
     * that cell's figure is below its stack's capacity, so the ratio errs in the direction said; empty otherwise.
     */
    static String ratioNote(List<CellResult> ours, List<CellResult> peer, Impl p) {
        List<String> notes = new ArrayList<>();
        CoreShares theirs = medianOf(peer);
        if (theirs != null && theirs.waited()) {
            notes.add(p.label() + " waited (cores " + theirs.text() + "): below its capacity, so this reads high");
        }
        CoreShares mine = medianOf(ours);
        if (mine != null && mine.waited()) {
            notes.add(ours.get(0).cell().impl().label() + " waited (cores " + mine.text()
                + "): below its capacity, so this reads low");
        }
        return String.join("; ", notes);
    }

    /**
     * Reads both processes' CPU time at each measured second's line: the shares are taken between the first line
     * and the last, so that neither the warm-up nor the JVMs' exit counts. Not thread-safe: the driver thread only.
     */
    static final class Meter {
        private final LongSupplier serverCpuNanos;
        private final LongSupplier clientCpuNanos;
        private final LongSupplier clock;
        private long firstWall;
        private long firstServer;
        private long firstClient;
        private long lastWall;
        private long lastServer;
        private long lastClient;
        private int seconds;

        /**
         * @param serverCpuNanos the server's CPU time so far, negative if unknown
         * @param clientCpuNanos the client's, likewise
         * @param clock          nanosecond wall clock
         */
        Meter(LongSupplier serverCpuNanos, LongSupplier clientCpuNanos, LongSupplier clock) {
            this.serverCpuNanos = serverCpuNanos;
            this.clientCpuNanos = clientCpuNanos;
            this.clock = clock;
        }

        /** At each measured second's line from the client. */
        void second() {
            long wall = clock.getAsLong();
            long s = serverCpuNanos.getAsLong();
            long c = clientCpuNanos.getAsLong();
            if (seconds++ == 0) {
                firstWall = wall;
                firstServer = s;
                firstClient = c;
            }
            lastWall = wall;
            lastServer = s;
            lastClient = c;
        }

        /** The shares between the first second's line and the last; null before two lines or if a time is unknown. */
        CoreShares shares() {
            long wall = lastWall - firstWall;
            if (seconds < 2 || wall <= 0 || firstServer < 0 || firstClient < 0 || lastServer < 0 || lastClient < 0) {
                return null;
            }
            return new CoreShares((double) (lastServer - firstServer) / wall,
                (double) (lastClient - firstClient) / wall);
        }
    }
}
