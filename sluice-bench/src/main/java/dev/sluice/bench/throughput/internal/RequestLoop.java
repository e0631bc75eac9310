package dev.sluice.bench.throughput.internal;

import io.netty.util.concurrent.EventExecutor;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * Request-response load over a Reactor API (Sluice's or rsocket-java's): a closed loop of a fixed number of
 * requests in flight, each answer sending the next from the thread that delivered it; and, paced by a
 * {@link Pacer} once the closed loop is stopped, one request per due time with its response time recorded from
 * that due time.
 *
 * <p>Answers that arrive on the connection's event loop are stamped and counted once per turn of that loop, as the
 * raw-Netty floor's client stamps and counts every answer of a socket read at once: paced answers' due times are
 * collected while the loop handles a read, and one clock reading at the end of the turn completes them all (a clock
 * reading costs about 24 ns here, a sixth of a request-response on this client: read per answer, it alone kept the
 * client from sustaining 90% of its closed-loop rate); every answer, closed-loop or paced, is counted in plain
 * loop-confined counters and reaches the meter once per turn, instead of an atomic update per answer (1.8% of the
 * client's time at 4 B). Answers on any other thread read the clock and update the atomic counts each.
 *
 * <p>One small subscriber per request: subscribers are not reused (Reactive Streams §2.12). Thread-safe:
 * answers may arrive on any thread.
 *
 * @param <T> the payload type or the message type (RPC)
 */
public final class RequestLoop<T> implements Pacer.Sender {

    private final Supplier<Mono<T>> call;
    private final Consumer<? super T> dispose;
    private final Meter meter;
    private final ClientReport report;
    private final Latency latency;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean closedLoop;
    /** The connection's loop, or null: answers on it are stamped and counted once per turn (see the class comment). */
    private EventExecutor loop;
    /** Closed-loop answers of the current turn, loop-confined. */
    private int closedThisTurn;
    /** Whether the current turn's end task is queued, loop-confined. */
    private boolean turnEndQueued;
    /** Due times of the current turn's answers, loop-confined; the length stays a power of two (recordAll). */
    private long[] dueThisTurn = new long[1024];
    private int answeredThisTurn;
    /** Paced requests sent, and answers stamped, on the pacing loop; loop-confined (see {@link #inFlight()}). */
    private long sentOnLoop;
    private long answeredOnLoop;
    private final Runnable stampTurn = this::stampTurn;

    /**
     * @param call    makes one request (a fresh payload each time: requests take ownership of it)
     * @param dispose what is done with each answer: releasing a payload, nothing for a message. Given rather than
     *                found by {@code instanceof ReferenceCounted}, which for a protobuf message (many interfaces,
     *                none of them that one) scans its interface list on every answer: 3% of the RPC client.
     * @param latency where paced response times go; null if never paced
     */
    public RequestLoop(Supplier<Mono<T>> call, Consumer<? super T> dispose, Meter meter, ClientReport report,
                       Latency latency) {
        this.call = call;
        this.dispose = dispose;
        this.meter = meter;
        this.report = report;
        this.latency = latency;
    }

    /**
     * Stamps and counts answers that arrive on {@code loop} once per turn of it; call before the closed loop
     * starts, with the connection's loop (where a pacer runs too).
     */
    public void stampAnswersPerTurn(EventExecutor loop) {
        this.loop = loop;
    }

    /** Starts a closed loop of {@code requests} in flight. */
    public void startClosedLoop(int requests) {
        closedLoop = true;
        for (int i = 0; i < requests; i++) {
            call.get().subscribe(new Answer(false, 0));
        }
    }

    @Override
    public void stopClosedLoop() {
        closedLoop = false;
    }

    @Override
    public void send(long dueNanos) {
        EventExecutor l = loop;
        if (l != null && l.inEventLoop()) {
            sentOnLoop++;
        } else {
            inFlight.incrementAndGet();
        }
        call.get().subscribe(new Answer(true, dueNanos));
    }

    /**
     * Requests sent and not answered: the atomic count of those sent or answered off the pacing loop, plus the
     * loop's own difference. The pacer asks on its loop, where the loop's counters are exact.
     */
    @Override
    public int inFlight() {
        return (int) (inFlight.get() + sentOnLoop - answeredOnLoop);
    }

    /**
     * Records a paced answer: on the pacing loop, queued for the turn's one clock reading, which also counts it
     * (returns true); elsewhere, recorded now (returns false: the caller counts it).
     */
    private boolean answered(long dueNanos) {
        EventExecutor l = loop;
        if (l == null || !l.inEventLoop()) {
            latency.record(dueNanos, System.nanoTime());
            return false;
        }
        if (answeredThisTurn == dueThisTurn.length) {
            dueThisTurn = Arrays.copyOf(dueThisTurn, dueThisTurn.length * 2);
        }
        dueThisTurn[answeredThisTurn++] = dueNanos;
        endTurnLater(l);
        return true;
    }

    /** Counts a closed-loop answer: on the loop, at the end of its turn; elsewhere now. */
    private void closedAnswered() {
        EventExecutor l = loop;
        if (l == null || !l.inEventLoop()) {
            meter.increment();
            return;
        }
        closedThisTurn++;
        endTurnLater(l);
    }

    private void endTurnLater(EventExecutor l) {
        if (!turnEndQueued) {
            turnEndQueued = true;
            // Runs after the loop has handled the read these answers came in (tasks follow I/O in a turn).
            l.execute(stampTurn);
        }
    }

    private void stampTurn() {
        int n = answeredThisTurn;
        if (n > 0) {
            latency.recordAll(dueThisTurn, 0, n, System.nanoTime());
        }
        answeredThisTurn = 0;
        answeredOnLoop += n;
        meter.add(n + closedThisTurn);
        closedThisTurn = 0;
        turnEndQueued = false;
    }

    private final class Answer implements CoreSubscriber<T> {
        private final boolean paced;
        private final long dueNanos;
        /** Counted (in flight and by the meter) at the end of the loop's turn rather than here. */
        private boolean countedOnLoop;

        Answer(boolean paced, long dueNanos) {
            this.paced = paced;
            this.dueNanos = dueNanos;
        }

        @Override
        public void onSubscribe(Subscription s) {
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(T payload) {
            dispose.accept(payload);
            if (!paced) {
                closedAnswered();
            } else if (answered(dueNanos)) {
                countedOnLoop = true;
            } else {
                meter.increment();
            }
        }

        @Override
        public void onError(Throwable t) {
            if (paced && !countedOnLoop) {
                inFlight.decrementAndGet();
            }
            report.fail(t);
        }

        @Override
        public void onComplete() {
            if (paced) {
                if (!countedOnLoop) {
                    inFlight.decrementAndGet();
                }
            } else if (closedLoop) {
                call.get().subscribe(new Answer(false, 0));
            }
        }
    }
}
