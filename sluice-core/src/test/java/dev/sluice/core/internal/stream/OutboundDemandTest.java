package dev.sluice.core.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;

/**
 * {@link OutboundDemand} against a synchronous source (it emits inside {@code request(n)}, as {@code Flux.range}
 * does) and a gate whose writability and task queue the test controls, so every step is deterministic.
 */
class OutboundDemandTest {

    private final FakeGate gate = new FakeGate();
    private final SyncSource source = new SyncSource();

    @Test
    void boundedCreditsAreRequestedAsGranted() {
        OutboundDemand d = start(5);
        assertThat(source.requests).containsExactly(5L);
        assertThat(source.emitted).isEqualTo(5);
        // The batch is done and nothing is left: no continuation is queued.
        assertThat(gate.tasks).isEmpty();
        d.add(3);
        assertThat(source.requests).containsExactly(5L, 3L);
        assertThat(source.emitted).isEqualTo(8);
    }

    @Test
    void unboundedCreditsGoUpstreamInBatchesOneTaskAtATime() {
        OutboundDemand d = start(Long.MAX_VALUE);
        // One batch inline, then the event loop is handed back: the next batch is a queued task.
        assertThat(source.requests).containsExactly((long) OutboundDemand.BATCH);
        assertThat(gate.tasks).hasSize(1);
        for (int i = 0; i < 10; i++) {
            gate.runOneTask();
        }
        assertThat(source.requests).hasSize(11).containsOnly((long) OutboundDemand.BATCH);
        assertThat(source.emitted).isEqualTo(11 * OutboundDemand.BATCH);
        assertThat(d.credits()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void largeCreditsAreSplitIntoBatches() {
        OutboundDemand d = start(OutboundDemand.BATCH * 2 + 10);
        gate.runAllTasks();
        assertThat(source.requests).containsExactly((long) OutboundDemand.BATCH, (long) OutboundDemand.BATCH,
            10L);
        assertThat(d.credits()).isZero();
        assertThat(gate.tasks).isEmpty();
    }

    @Test
    void nothingIsRequestedWhileTheTransportIsNotWritable() {
        gate.writable = false;
        OutboundDemand d = start(Long.MAX_VALUE);
        assertThat(source.requests).isEmpty();
        assertThat(gate.waiters).hasSize(1);
        // More grants while waiting do not request either, nor queue a second waiter.
        d.add(100);
        assertThat(source.requests).isEmpty();
        assertThat(gate.waiters).hasSize(1);
        gate.becomeWritable();
        assertThat(source.requests).containsExactly((long) OutboundDemand.BATCH);
        // Unwritable again before the next batch: it waits again.
        gate.writable = false;
        gate.runAllTasks();
        assertThat(source.requests).hasSize(1);
        assertThat(gate.waiters).hasSize(1);
    }

    @Test
    void repeatedUnboundedGrantsDoNotOverflow() {
        source.limit = 0; // a source that emits nothing keeps the batch in flight
        OutboundDemand d = start(1);
        for (int i = 0; i < 5; i++) {
            d.add(Long.MAX_VALUE);
        }
        assertThat(d.credits()).isEqualTo(Long.MAX_VALUE);
        OutboundDemand e = new OutboundDemand(gate, 0);
        for (int i = 0; i < 10; i++) {
            e.add(Integer.MAX_VALUE - 1L);
        }
        // Ten grants of 2^31-2 add up in a long: no wrap to a negative count.
        assertThat(e.credits()).isEqualTo(10 * (Integer.MAX_VALUE - 1L));
    }

    @Test
    void stoppedDemandRequestsNothingMore() {
        OutboundDemand d = start(Long.MAX_VALUE);
        d.stop();
        gate.runAllTasks();
        d.add(5);
        assertThat(source.requests).containsExactly((long) OutboundDemand.BATCH);
    }

    private OutboundDemand start(long credits) {
        OutboundDemand d = new OutboundDemand(gate, credits);
        source.demand = d;
        d.start(source);
        return d;
    }

    /** Emits inside request(n), up to {@code limit} elements in all. */
    private static final class SyncSource implements Subscription {
        final List<Long> requests = new ArrayList<>();
        OutboundDemand demand;
        long limit = Long.MAX_VALUE;
        long emitted;

        @Override
        public void request(long n) {
            requests.add(n);
            for (long i = 0; i < n && emitted < limit; i++) {
                emitted++;
                demand.received();
            }
        }

        @Override
        public void cancel() {
        }
    }

    private static final class FakeGate implements OutboundGate {
        final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        final ArrayDeque<Runnable> waiters = new ArrayDeque<>();
        boolean writable = true;

        @Override
        public boolean writable() {
            return writable;
        }

        @Override
        public void whenWritable(Runnable task) {
            waiters.add(task);
        }

        @Override
        public void later(Runnable task) {
            tasks.add(task);
        }

        void runOneTask() {
            tasks.poll().run();
        }

        /** Runs queued tasks, at most 1,000 (a bound, so that an unbounded source cannot loop forever). */
        void runAllTasks() {
            for (int i = 0; i < 1000 && !tasks.isEmpty(); i++) {
                tasks.poll().run();
            }
        }

        void becomeWritable() {
            writable = true;
            for (Runnable r; (r = waiters.poll()) != null; ) {
                r.run();
            }
        }
    }
}
