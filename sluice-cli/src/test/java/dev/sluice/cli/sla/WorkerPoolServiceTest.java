package dev.sluice.cli.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import dev.sluice.core.Payload;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.test.scheduler.VirtualTimeScheduler;

/** The upstream model on virtual time: workers, the FIFO queue, cancellation. */
class WorkerPoolServiceTest {

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final List<String> answers = new ArrayList<>();
    private final List<Disposable> calls = new ArrayList<>();

    @AfterEach
    void dispose() {
        calls.forEach(Disposable::dispose);
        time.dispose();
    }

    private void call(WorkerPoolService service, String name) {
        calls.add(service.requestResponse(Payload.create(name)).subscribe(p -> {
            answers.add(name + "@" + Duration.ofNanos(time.now(TimeUnit.NANOSECONDS)).toMillis()
                + "ms=" + p.data().toString(StandardCharsets.UTF_8));
            p.release();
        }));
    }

    @Test
    void twoWorkersServeTwoCallsAtOnceAndQueueTheRestInOrder() {
        // 2 workers, 25 ms each: capacity 80/s.
        WorkerPoolService service = new WorkerPoolService(2, 25_000_000, 25_000_000, time, 1);
        assertThat(service.capacity()).isEqualTo(80.0);
        for (String name : new String[] {"a", "b", "c", "d", "e"}) {
            call(service, name);
        }
        assertThat(service.busy()).isEqualTo(2);
        assertThat(service.queued()).isEqualTo(3);

        time.advanceTimeBy(Duration.ofMillis(24));
        assertThat(answers).isEmpty();
        time.advanceTimeBy(Duration.ofMillis(1));
        assertThat(answers).containsExactly("a@25ms=ok", "b@25ms=ok");
        time.advanceTimeBy(Duration.ofMillis(50));
        assertThat(answers).containsExactly("a@25ms=ok", "b@25ms=ok", "c@50ms=ok", "d@50ms=ok", "e@75ms=ok");
        assertThat(service.busy()).isZero();
        assertThat(service.served()).isEqualTo(5);
    }

    @Test
    void aCancelledQueuedCallCostsNothingButACallInServiceHoldsItsWorker() {
        WorkerPoolService service = new WorkerPoolService(1, 10_000_000, 10_000_000, time, 1);
        call(service, "a");
        call(service, "b");
        call(service, "c");
        calls.get(1).dispose();
        assertThat(service.queued()).as("b left the queue").isEqualTo(1);
        calls.get(0).dispose();
        assertThat(service.busy()).as("a's worker is still busy").isEqualTo(1);

        time.advanceTimeBy(Duration.ofMillis(10));
        assertThat(answers).as("a's answer is dropped; c starts after a's full 10 ms").isEmpty();
        time.advanceTimeBy(Duration.ofMillis(10));
        assertThat(answers).containsExactly("c@20ms=ok");
        assertThat(service.served()).as("a and c; b never").isEqualTo(2);
    }

    @Test
    void serviceTimesAreDrawnFromTheRange() {
        WorkerPoolService service = new WorkerPoolService(1, 20_000_000, 25_000_000, time, 7);
        assertThat(service.capacity()).isCloseTo(1e9 / 22_500_000, offset(1e-9));
        call(service, "a");
        time.advanceTimeBy(Duration.ofNanos(20_000_000 - 1));
        assertThat(answers).as("not before the shortest time").isEmpty();
        time.advanceTimeBy(Duration.ofNanos(5_000_001));
        assertThat(answers).as("by the longest").hasSize(1);
    }

    @Test
    void wrongSettingsAreRefused() {
        assertThatThrownBy(() -> new WorkerPoolService(0, 1, 1, time, 1)).hasMessage("workers < 1: 0");
        assertThatThrownBy(() -> new WorkerPoolService(1, 5, 4, time, 1))
            .hasMessage("expected 0 <= minNanos <= maxNanos, got minNanos=5 maxNanos=4");
    }
}
