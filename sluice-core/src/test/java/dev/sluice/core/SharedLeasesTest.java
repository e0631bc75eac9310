package dev.sluice.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.SignalType;
import reactor.test.scheduler.VirtualTimeScheduler;

/** One capacity for every connection: split by use each period, never leased beyond it at once. */
class SharedLeasesTest {

    private static final Duration TTL = Duration.ofSeconds(1);

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    private final List<Disposable> subscriptions = new ArrayList<>();

    @AfterEach
    void close() {
        subscriptions.forEach(Disposable::dispose);
        time.dispose();
    }

    /** What one connection was last leased. */
    private final class Client {
        final SharedLeases.Share share;
        int lastAllowed = -1;

        Client(SharedLeases shared) {
            share = shared.join();
            subscriptions.add(share.leases().subscribe(l -> lastAllowed = l.allowedRequests()));
        }

        void use(int requests) {
            for (int i = 0; i < requests; i++) {
                share.onResponseStarted(RequestType.REQUEST_RESPONSE, null, SignalType.ON_NEXT, 1, false);
            }
            share.onResponseStarted(RequestType.REQUEST_RESPONSE, null, SignalType.ON_ERROR, 0, true);
        }
    }

    @Test
    void theFirstConnectionGetsEverythingAndALaterOneWaitsForTheNextPeriod() {
        SharedLeases shared = SharedLeases.of(100, TTL, null, time);
        Client a = new Client(shared);
        assertThat(a.lastAllowed).isEqualTo(100);
        Client b = new Client(shared);
        assertThat(b.lastAllowed).as("nothing left to lease this period").isEqualTo(-1);
        a.use(100);
        time.advanceTimeBy(TTL);
        // a used all of its lease (counts as wanting 150), b nothing: a quarter evenly, the rest by use.
        assertThat(a.lastAllowed).isEqualTo(87);
        assertThat(b.lastAllowed).isEqualTo(12);
        a.use(40);
        b.use(12);
        time.advanceTimeBy(TTL);
        // wants: a 40, b 18 (used all of 12): 100 * (0.125 + 0.75 * 40/58) and 100 * (0.125 + 0.75 * 18/58).
        assertThat(a.lastAllowed).isEqualTo(64);
        assertThat(b.lastAllowed).isEqualTo(35);
        shared.dispose();
    }

    @Test
    void theFirstPeriodStartsWhenTheCallerSaysAtTheFirstJoin() {
        time.advanceTimeBy(Duration.ofSeconds(10));
        SharedLeases shared = SharedLeases.of(100, TTL, () -> Duration.ofMillis(300), time);
        Client a = new Client(shared);
        Client b = new Client(shared);
        time.advanceTimeBy(Duration.ofMillis(299));
        assertThat(b.lastAllowed).as("before the first period").isEqualTo(-1);
        time.advanceTimeBy(Duration.ofMillis(1));
        assertThat(List.of(a.lastAllowed, b.lastAllowed)).containsExactly(50, 50);
        time.advanceTimeBy(TTL.minusMillis(1));
        a.use(50);
        time.advanceTimeBy(Duration.ofMillis(1));
        assertThat(a.lastAllowed).as("the next period, a ttl later").isEqualTo(87);
        shared.dispose();
    }

    @Test
    void whenNoneUsedAnythingTheCapacityIsSplitEvenly() {
        SharedLeases shared = SharedLeases.of(90, TTL, null, time);
        Client a = new Client(shared);
        Client b = new Client(shared);
        Client c = new Client(shared);
        time.advanceTimeBy(TTL);
        assertThat(List.of(a.lastAllowed, b.lastAllowed, c.lastAllowed)).containsOnly(30);
        shared.dispose();
    }

    @Test
    void whatIsLeasedAtOnceNeverExceedsTheCapacity() {
        SharedLeases shared = SharedLeases.of(37, TTL, null, time);
        List<Client> clients = new ArrayList<>();
        Random random = new Random(7);
        for (int period = 0; period < 500; period++) {
            if (clients.size() < 6 && random.nextInt(10) == 0) {
                clients.add(new Client(shared));
            }
            for (Client c : clients) {
                c.use(random.nextInt(Math.max(1, c.lastAllowed + 1)));
            }
            time.advanceTimeBy(TTL);
            int leased = clients.stream().mapToInt(c -> Math.max(0, c.lastAllowed)).sum();
            assertThat(leased).as("period " + period).isLessThanOrEqualTo(37);
        }
        shared.dispose();
    }

    @Test
    void aConnectionThatLeavesLeavesItsShareToTheOthers() {
        SharedLeases shared = SharedLeases.of(100, TTL, null, time);
        Client a = new Client(shared);
        Client b = new Client(shared);
        time.advanceTimeBy(TTL);
        assertThat(a.lastAllowed).isEqualTo(50);
        subscriptions.remove(1).dispose();
        time.advanceTimeBy(TTL);
        assertThat(a.lastAllowed).isEqualTo(100);
        assertThat(b.lastAllowed).isEqualTo(50);
        shared.dispose();
    }
}
