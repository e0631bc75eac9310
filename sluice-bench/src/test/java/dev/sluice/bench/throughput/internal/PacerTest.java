package dev.sluice.bench.throughput.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PacerTest {

    private static final long MS = 1_000_000;

    /** Records due times; answers nothing unless told. */
    private static final class Recorder implements Pacer.Sender {
        final List<Long> due = new ArrayList<>();
        int answered;

        @Override
        public void send(long dueNanos) {
            due.add(dueNanos);
        }

        @Override
        public int inFlight() {
            return due.size() - answered;
        }

        @Override
        public void stopClosedLoop() {
        }
    }

    @Test
    void sendsEachRequestAtItsDueTimeOnAGrid() {
        long start = 10 * MS;
        Pacer pacer = new Pacer(1000, 100, () -> start);
        Recorder r = new Recorder();
        // rows: now (ms after start) -> requests sent by that call
        assertThat(pacer.sendDue(r, start)).as("t=0: request 0 is due").isEqualTo(1);
        assertThat(pacer.sendDue(r, start + MS / 2)).as("t=0.5 ms: nothing new").isEqualTo(0);
        assertThat(pacer.sendDue(r, start + 3 * MS)).as("t=3 ms: requests 1, 2, 3").isEqualTo(3);
        assertThat(r.due).containsExactly(start, start + MS, start + 2 * MS, start + 3 * MS);
    }

    @Test
    void waitsAtMaxInFlightThenSendsTheBacklogWithTheirOriginalDueTimes() {
        Pacer pacer = new Pacer(1000, 2, () -> 0);
        Recorder r = new Recorder();
        assertThat(pacer.sendDue(r, 4 * MS)).as("5 due, 2 allowed in flight").isEqualTo(2);
        r.answered = 2;
        assertThat(pacer.sendDue(r, 5 * MS)).as("6 due, 2 more allowed").isEqualTo(2);
        r.answered = 4;
        assertThat(pacer.sendDue(r, 5 * MS)).isEqualTo(2);
        // The late ones keep the times they were due at: their response times will include the wait.
        assertThat(r.due).containsExactly(0L, MS, 2 * MS, 3 * MS, 4 * MS, 5 * MS);
    }

    @Test
    void catchesUpAtMostFourTicksWorthAtATimeKeepingTheDueTimes() {
        // 1,000,000/s: 50 due per 50 µs tick, so a tick sends at most 200.
        Pacer pacer = new Pacer(1_000_000, 1 << 20, () -> 0);
        Recorder r = new Recorder();
        assertThat(pacer.sendDue(r, 10 * MS)).as("10,001 due after a 10 ms stall").isEqualTo(200);
        assertThat(pacer.sendDue(r, 10 * MS)).as("the next tick goes on").isEqualTo(200);
        assertThat(r.due.get(399)).as("request 399 was due at 399 µs").isEqualTo(399_000L);
        for (int tick = 0; tick < 100; tick++) {
            pacer.sendDue(r, 10 * MS);
        }
        assertThat(r.due).as("all 10,001 sent, none skipped").hasSize(10_001);
        assertThat(pacer.sendDue(r, 10 * MS)).as("caught up").isZero();
    }

    @Test
    void aRestartDropsTheUnsentBacklogAndSchedulesFromThen() {
        Pacer pacer = new Pacer(1000, 2, () -> 0);
        Recorder r = new Recorder();
        assertThat(pacer.sendDue(r, 9 * MS)).as("10 due, 2 allowed in flight").isEqualTo(2);
        r.answered = 2;
        pacer.restart(20 * MS);
        assertThat(pacer.sendDue(r, 20 * MS)).as("only the request due at the restart").isEqualTo(1);
        assertThat(pacer.sendDue(r, 22 * MS)).as("two more due, one allowed in flight").isEqualTo(1);
        r.answered = 4;
        assertThat(pacer.sendDue(r, 22 * MS)).isEqualTo(1);
        assertThat(r.due).as("requests 2-9 of before the restart were never sent")
            .containsExactly(0L, MS, 20 * MS, 21 * MS, 22 * MS);
    }

    @Test
    void rejectsNonPositiveSettingsQuotingThem() {
        assertThatThrownBy(() -> new Pacer(0, 1, () -> 0)).hasMessage("ratePerSecond <= 0: 0");
        assertThatThrownBy(() -> new Pacer(1, -3, () -> 0)).hasMessage("maxInFlight <= 0: -3");
    }
}
