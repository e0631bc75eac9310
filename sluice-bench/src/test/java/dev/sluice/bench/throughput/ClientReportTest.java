package dev.sluice.bench.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.bench.throughput.internal.ClientReport;
import dev.sluice.bench.throughput.internal.Latency;
import dev.sluice.bench.throughput.internal.Meter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/** The client's lines to the driver, on a virtual clock: no test here waits. */
class ClientReportTest {

    private static final long SECOND = 1_000_000_000L;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final Meter meter = new Meter();

    /**
     * Each reading of the clock moves it one second on, during which 1000 messages are handled and, when paced,
     * one request due at the reading is answered 1 ms later.
     */
    private LongSupplier loadedClock(Latency latency) {
        return loadedClock(latency, t -> 1_000_000);
    }

    /** As {@link #loadedClock(Latency)}, the answer due at reading {@code t} taking {@code took(t)} nanoseconds. */
    private LongSupplier loadedClock(Latency latency, LongUnaryOperator took) {
        long[] now = {0};
        return () -> {
            meter.add(1000);
            long t = now[0];
            if (latency != null) {
                latency.record(t, t + took.applyAsLong(t));
            }
            now[0] += SECOND;
            return t;
        };
    }

    private List<String> lines() {
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void printsWarmupThenMeasuredFiguresFromMeasuredTimeThenDone() {
        ChildOptions o = ChildOptions.parse(new String[] {"--warmup", "2", "--seconds", "3"});
        int status = new ClientReport(o, meter, null, out, loadedClock(null)).run();
        assertThat(status).isZero();
        // Two clock readings a second, 1000 messages each, over two seconds of clock: 1000/s.
        assertThat(lines()).containsExactly("warmup 1 1000", "warmup 2 1000", "tick 1 1000", "tick 2 1000",
            "tick 3 1000", "done");
    }

    @Test
    void pacedRunReportsLatencyOfTheMeasuredSecondsOnly() {
        ChildOptions o = ChildOptions.parse(new String[] {"--interaction", "response", "--rate", "10", "--warmup",
            "1", "--seconds", "2"});
        Latency latency = new Latency();
        latency.record(0, 5 * SECOND); // during warm-up: must not show
        boolean[] restarted = {false};
        ClientReport report = new ClientReport(o, meter, latency, out, loadedClock(latency));
        report.whenPacing(() -> restarted[0] = true);
        int status = report.run();
        assertThat(restarted[0]).as("the pacer was told to start").isTrue();
        assertThat(status).isZero();
        List<String> lines = lines();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(4)).isEqualTo("done");
        LatencyFigures l = LatencyFigures.parse(lines.get(3).substring("latency".length()));
        // Readings at 3..6 s: the one at 3 s (the warm-up's end, "now") and those after it.
        assertThat(l.count()).isEqualTo(4);
        assertThat(l.max()).isBetween(999.0, 1001.0);
        assertThat(l.p50()).isBetween(999.0, 1001.0);
    }

    @Test
    void pacedSecondsCarryTheP99OfTheirOwnAnswersAndTheLatencyLineSumsTheMeasuredOnes() {
        ChildOptions o = ChildOptions.parse(new String[] {"--interaction", "response", "--rate", "10", "--warmup",
            "2", "--seconds", "2"});
        Latency latency = new Latency();
        // Each answer takes one millisecond more than the one before: 1 ms at 0 s, 2 ms at 1 s... Two readings a
        // second (the wait's and the line's), so the seconds' lines see 1-3, 4-5, then (measuring from 4 s) 6-7
        // and 8-9 ms.
        LongSupplier clock = loadedClock(latency, t -> (t / SECOND + 1) * 1_000_000);
        assertThat(new ClientReport(o, meter, latency, out, clock).run()).isZero();
        List<String> lines = lines();
        assertThat(lines).hasSize(6);
        assertThat(lines.subList(0, 4)).extracting(l -> l.substring(0, l.indexOf(" p99=")))
            .containsExactly("warmup 1 1000", "warmup 2 1000", "tick 1 1000", "tick 2 1000");
        assertThat(lines.subList(0, 4)).extracting(l -> Double.parseDouble(l.substring(l.indexOf("p99=") + 4)))
            .satisfiesExactly(p -> assertThat(p).isBetween(2999.0, 3004.0),
                p -> assertThat(p).isBetween(4999.0, 5004.0),
                p -> assertThat(p).isBetween(6999.0, 7004.0),
                p -> assertThat(p).isBetween(8999.0, 9005.0));
        LatencyFigures l = LatencyFigures.parse(lines.get(4).substring("latency".length()));
        // The measured seconds' answers only: 6 to 9 ms.
        assertThat(l.count()).isEqualTo(4);
        assertThat(l.p50()).isBetween(6999.0, 7004.0);
        assertThat(l.max()).isBetween(8999.0, 9005.0);
    }

    @Test
    void pacingTakesOverAQuarterOfTheWayThroughWarmUp() {
        ChildOptions o = ChildOptions.parse(new String[] {"--interaction", "response", "--rate", "10", "--warmup",
            "8", "--seconds", "1"});
        ClientReport report = new ClientReport(o, meter, new Latency(), out, loadedClock(null));
        int[] linesWhenPacing = {-1};
        report.whenPacing(() -> linesWhenPacing[0] = lines().size());
        assertThat(report.run()).isZero();
        assertThat(linesWhenPacing[0]).as("lines printed when pacing started").isEqualTo(2);
        assertThat(lines().subList(0, 2)).containsExactly("warmup 1 1000", "warmup 2 1000");
    }

    @Test
    void measuringStartsWithTheLastWarmUpLine() {
        ChildOptions o = ChildOptions.parse(new String[] {"--interaction", "response", "--rate", "10", "--warmup",
            "4", "--seconds", "2"});
        ClientReport report = new ClientReport(o, meter, new Latency(), out, loadedClock(null));
        int[] linesWhenMeasuring = {-1};
        int[] calls = {0};
        report.whenMeasuring(() -> {
            linesWhenMeasuring[0] = lines().size();
            calls[0]++;
        });
        assertThat(report.run()).isZero();
        assertThat(calls[0]).as("told once").isEqualTo(1);
        assertThat(linesWhenMeasuring[0]).as("lines printed when measuring started").isEqualTo(4);
        assertThat(lines().get(3)).isEqualTo("warmup 4 1000");
    }

    @Test
    void everySecondRunsAfterEachLineWarmUpIncludedInOrderWithTheOtherHooks() {
        ChildOptions o = ChildOptions.parse(new String[] {"--interaction", "response", "--rate", "10", "--warmup",
            "4", "--seconds", "2"});
        ClientReport report = new ClientReport(o, meter, new Latency(), out, loadedClock(null));
        List<String> events = new ArrayList<>();
        report.whenPacing(() -> events.add("pacing"));
        report.whenMeasuring(() -> events.add("measuring"));
        report.everySecond(() -> events.add("second after line " + lines().size()));
        assertThat(report.run()).isZero();
        assertThat(events).containsExactly("second after line 1", "pacing", "second after line 2",
            "second after line 3", "second after line 4", "measuring", "second after line 5",
            "second after line 6");
    }

    @Test
    void aFailedLoadEndsTheReportWithAnErrorLine() {
        ChildOptions o = ChildOptions.parse(new String[] {"--warmup", "1", "--seconds", "5"});
        ClientReport report = new ClientReport(o, meter, null, out, loadedClock(null));
        report.fail(new IllegalStateException("the connection closed"));
        PrintStream err = System.err;
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try {
            assertThat(report.run()).isEqualTo(1);
        } finally {
            System.setErr(err);
        }
        assertThat(lines()).containsExactly("error java.lang.IllegalStateException: the connection closed");
    }
}
