package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultEventLoop;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/** The client-side loads shared by the Sluice and rsocket-java clients, against publishers the test drives. */
class ReactiveLoadsTest {

    private final Meter meter = new Meter();
    private final ClientReport report = new ClientReport(ChildOptions.parse(new String[0]), meter, null,
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), System::nanoTime);

    /** A loop whose every request is a new sink, added to {@code calls} for the test to answer. */
    private RequestLoop<ByteBuf> loopOver(List<Sinks.One<ByteBuf>> calls, Latency latency) {
        return new RequestLoop<>(() -> {
            Sinks.One<ByteBuf> s = Sinks.one();
            calls.add(s);
            return s.asMono();
        }, ByteBuf::release, meter, report, latency);
    }

    @Test
    void windowedCounterKeepsDemandWithinTheWindowAndReleasesWhatItCounts() {
        List<Long> requests = new ArrayList<>();
        Sinks.Many<ByteBuf> sink = Sinks.many().unicast().onBackpressureBuffer();
        sink.asFlux().doOnRequest(requests::add).subscribe(new WindowedCounter<>(ByteBuf::release, meter, report, 4));
        List<ByteBuf> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ByteBuf b = Unpooled.buffer(1);
            sent.add(b);
            sink.tryEmitNext(b);
        }
        // 4 up front, then 2 more each time 2 have arrived: never more than 4 outstanding.
        assertThat(requests).containsExactly(4L, 2L, 2L);
        assertThat(meter.total()).as("counted half a window at a time: the fifth waits for its half").isEqualTo(4);
        assertThat(sent).allMatch(b -> b.refCnt() == 0);
        assertThat(report.failure()).isNull();
    }

    @Test
    void windowedCounterReportsAStreamThatEnds() {
        Flux.<ByteBuf>empty().subscribe(new WindowedCounter<>(ByteBuf::release, meter, report, 4));
        assertThat(report.failure()).hasMessage("the stream completed, but the benchmark's streams are infinite");
    }

    @Test
    void closedLoopKeepsTheWindowInFlightAndSendsOnePerAnswer() {
        List<Sinks.One<ByteBuf>> calls = new ArrayList<>();
        RequestLoop<ByteBuf> loop = loopOver(calls, null);
        loop.startClosedLoop(3);
        assertThat(calls).hasSize(3);

        ByteBuf answer = Unpooled.buffer(1);
        calls.get(1).tryEmitValue(answer);
        assertThat(answer.refCnt()).isZero();
        assertThat(meter.total()).isEqualTo(1);
        assertThat(calls).as("the answer sent the next request").hasSize(4);
    }

    @Test
    void pacedRequestsRecordTheirTimeFromWhenTheyWereDue() {
        Latency latency = new Latency();
        Sinks.One<ByteBuf> call = Sinks.one();
        RequestLoop<ByteBuf> loop = new RequestLoop<>(call::asMono, ByteBuf::release, meter, report, latency);
        long due = System.nanoTime() - 5_000_000_000L;
        loop.send(due);
        assertThat(loop.inFlight()).isEqualTo(1);
        call.tryEmitValue(Unpooled.buffer(1));
        // At least the 5 s since it was due, however quickly the answer came.
        assertThat(latency.snapshot().getMinValue()).isGreaterThanOrEqualTo(4_990_000_000L);
        assertThat(loop.inFlight()).isZero();
    }

    @Test
    void pacedAnswersOnThePacingLoopAreStampedTogetherWhenItsTurnEnds() throws Exception {
        DefaultEventLoop eventLoop = new DefaultEventLoop();
        try {
            Latency latency = new Latency();
            List<Sinks.One<ByteBuf>> calls = new ArrayList<>();
            RequestLoop<ByteBuf> loop = loopOver(calls, latency);
            loop.stampAnswersPerTurn(eventLoop);
            long due = System.nanoTime() - 5_000_000_000L;
            long[] recordedDuringTheTurn = new long[1];
            long[] countedDuringTheTurn = new long[2];
            eventLoop.submit(() -> {
                loop.send(due);
                loop.send(due + 1_000_000_000L);
                calls.get(0).tryEmitValue(Unpooled.buffer(1));
                calls.get(1).tryEmitValue(Unpooled.buffer(1));
                recordedDuringTheTurn[0] = latency.snapshot().getTotalCount();
                countedDuringTheTurn[0] = meter.total();
                countedDuringTheTurn[1] = loop.inFlight();
            }).get(10, TimeUnit.SECONDS);
            eventLoop.submit(() -> { }).get(10, TimeUnit.SECONDS); // the stamping task ran before this one
            org.HdrHistogram.Histogram h = latency.snapshot();
            assertThat(recordedDuringTheTurn[0]).as("nothing recorded within the turn").isZero();
            assertThat(countedDuringTheTurn).as("answers counted when the turn ends, not one by one")
                .containsExactly(0L, 2L);
            assertThat(meter.total()).isEqualTo(2);
            assertThat(h.getTotalCount()).isEqualTo(2);
            // Times from the due times: at least the 4 s since the later one was due.
            assertThat(h.getMinValue()).isGreaterThanOrEqualTo(3_990_000_000L);
            assertThat(loop.inFlight()).isZero();
        } finally {
            eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    @Test
    void closedLoopAnswersOnTheLoopAreCountedWhenItsTurnEnds() throws Exception {
        DefaultEventLoop eventLoop = new DefaultEventLoop();
        try {
            List<Sinks.One<ByteBuf>> calls = new ArrayList<>();
            RequestLoop<ByteBuf> loop = loopOver(calls, null);
            loop.stampAnswersPerTurn(eventLoop);
            long[] countedDuringTheTurn = new long[1];
            eventLoop.submit(() -> {
                loop.startClosedLoop(3);
                calls.get(0).tryEmitValue(Unpooled.buffer(1));
                calls.get(2).tryEmitValue(Unpooled.buffer(1));
                countedDuringTheTurn[0] = meter.total();
            }).get(10, TimeUnit.SECONDS);
            eventLoop.submit(() -> { }).get(10, TimeUnit.SECONDS); // the turn's end task ran before this one
            assertThat(countedDuringTheTurn[0]).as("nothing counted within the turn").isZero();
            assertThat(meter.total()).isEqualTo(2);
            assertThat(calls).as("each answer sent the next request at once").hasSize(5);
            calls.get(3).tryEmitValue(Unpooled.buffer(1));
            assertThat(meter.total()).as("an answer off the loop is counted as it comes").isEqualTo(3);
        } finally {
            eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    @Test
    void stoppingTheClosedLoopLetsItsRequestsFinishWithoutSuccessors() {
        List<Sinks.One<ByteBuf>> calls = new ArrayList<>();
        RequestLoop<ByteBuf> loop = loopOver(calls, new Latency());
        loop.startClosedLoop(2);
        loop.stopClosedLoop();
        calls.get(0).tryEmitValue(Unpooled.buffer(1));
        assertThat(calls).as("no successor once stopped").hasSize(2);
        assertThat(meter.total()).isEqualTo(1);
        assertThat(loop.inFlight()).as("closed-loop requests are not the pacer's").isZero();
    }

    @Test
    void aBatchOfAnswersIsRecordedFromARingAndJoinsTheSingleAnswers() {
        Latency latency = new Latency();
        long now = System.nanoTime();
        latency.startMeasuring(now);
        long[] ring = new long[4];
        // Positions 6, 7, 8 of the ring: indexes 2, 3, 0. The one at index 1 is not part of the batch.
        ring[2] = now + 1_000_000;
        ring[3] = now + 2_000_000;
        ring[0] = now - 5_000_000; // due before measuring started: left out
        ring[1] = now;
        latency.recordAll(ring, 6, 3, now + 10_000_000);
        latency.record(now + 3_000_000, now + 4_000_000);
        org.HdrHistogram.Histogram h = latency.snapshot();
        assertThat(h.getTotalCount()).isEqualTo(3);
        assertThat(h.getMaxValue()).isBetween(8_990_000L, 9_010_000L);
        assertThat(h.getMinValue()).isBetween(990_000L, 1_010_000L);
        assertThat(latency.snapshot().getTotalCount()).as("a snapshot takes what it returns").isZero();
    }

    @Test
    void batchesRecordedBeforeMeasuringStartsAreForgotten() {
        Latency latency = new Latency();
        long now = System.nanoTime();
        latency.recordAll(new long[] {now - 2_000_000}, 0, 1, now);
        latency.startMeasuring(now);
        assertThat(latency.snapshot().getTotalCount()).isZero();
    }

    @Test
    void answersToRequestsDueBeforeMeasuringStartedAreLeftOut() {
        Latency latency = new Latency();
        long now = System.nanoTime();
        latency.record(now - 9_000_000, now - 1_000_000); // warm-up: forgotten when measuring starts
        latency.startMeasuring(now);
        latency.record(now - 1, now + 7_000_000);
        latency.record(now, now + 2_000_000);
        org.HdrHistogram.Histogram h = latency.snapshot();
        assertThat(h.getTotalCount()).isEqualTo(1);
        assertThat(h.getMaxValue()).isBetween(1_990_000L, 2_010_000L);
    }

    @Test
    void fireAndForgetCountsARoundOnlyWhenItsFenceIsAnswered() {
        int[] fired = new int[1];
        List<Sinks.One<ByteBuf>> fences = new ArrayList<>();
        FencedFireAndForget<ByteBuf> load = new FencedFireAndForget<>(() -> Mono.fromRunnable(() -> fired[0]++),
            () -> {
                Sinks.One<ByteBuf> s = Sinks.one();
                fences.add(s);
                return s.asMono();
            }, 10, meter, report);
        load.start();
        assertThat(fired[0]).as("two rounds in flight").isEqualTo(20);
        assertThat(fences).hasSize(2);
        assertThat(meter.total()).isZero();

        fences.get(0).tryEmitValue(Unpooled.buffer(1));
        assertThat(meter.total()).isEqualTo(10);
        assertThat(fired[0]).as("the answer started the next round").isEqualTo(30);
        assertThat(fences).hasSize(3);
    }

    @Test
    void aFenceWithoutAnAnswerIsAFailure() {
        new FencedFireAndForget<ByteBuf>(Mono::empty, Mono::empty, 1, meter, report).start();
        assertThat(report.failure()).hasMessage("the fence's request-response completed without an answer");
        assertThat(meter.total()).isZero();
    }
}
