package dev.sluice.loadbalance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.transport.ClientTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;

/**
 * A balancer that follows a publisher of target lists ({@code Builder.build(Publisher)}), on fake connections that
 * connect at once, so every list is applied before {@code tryEmitNext} returns.
 */
class BalancerDiscoveryTest {

    private static final ClientTransport UNUSED = () -> Mono.error(new IllegalStateException("not used"));
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Every connection made, by key; a key connected again (after a removal) gets a new one. */
    private final Map<String, List<FakeConnection>> made = new ConcurrentHashMap<>();
    private LeastLoadedBalancer balancer;

    @AfterEach
    void dispose() {
        if (balancer != null) {
            balancer.dispose();
        }
    }

    private LeastLoadedBalancer follow(Flux<? extends Collection<Target>> lists) {
        balancer = new LeastLoadedBalancer.Builder(t -> {
            FakeConnection c = new FakeConnection(t.key());
            made.computeIfAbsent(t.key(), k -> new ArrayList<>()).add(c);
            return Mono.<Connection>just(c);
        }).drainTimeout(Duration.ZERO).build(lists);
        return balancer;
    }

    private static List<Target> targets(String... keys) {
        List<Target> out = new ArrayList<>();
        for (String k : keys) {
            out.add(new Target(k, UNUSED));
        }
        return out;
    }

    /** Every target's key, connected or not, in the order added. */
    private List<String> keys() {
        return List.copyOf(balancer.availabilityByTarget().keySet());
    }

    private FakeConnection only(String key) {
        assertThat(made.get(key)).as("connections made to %s", key).hasSize(1);
        return made.get(key).get(0);
    }

    @Test
    void eachListReplacesTheSet() {
        Sinks.Many<List<Target>> lists = Sinks.many().unicast().onBackpressureBuffer();
        follow(lists.asFlux());

        lists.tryEmitNext(targets("a", "b"));
        assertThat(keys()).containsExactly("a", "b");
        assertThat(balancer.connectedTargets()).containsExactly("a", "b");

        lists.tryEmitNext(targets("b", "c"));
        assertThat(keys()).containsExactly("b", "c");
        assertThat(only("a").isDisposed()).as("a, missing from the list, is closed").isTrue();
        assertThat(only("b").isDisposed()).as("b, kept, keeps its connection").isFalse();
        assertThat(only("c").isDisposed()).isFalse();

        lists.tryEmitNext(targets("a", "b", "c"));
        assertThat(made.get("a")).as("a, listed again, is connected anew").hasSize(2);
        assertThat(balancer.connectedTargets()).containsExactlyInAnyOrder("a", "b", "c");
        for (int i = 0; i < 30; i++) {
            assertThat(((FakeConnection) balancer.select()).isDisposed()).isFalse();
        }
    }

    @Test
    void requestsBeforeTheFirstListFailAtOnceAndSaySo() {
        Sinks.Many<List<Target>> lists = Sinks.many().unicast().onBackpressureBuffer();
        follow(lists.asFlux());
        StepVerifier.create(balancer.requestResponse(Payload.create("early")))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(NoTargetAvailableException.class)
                .hasMessage("no target available: no target list received yet"))
            .verify(TIMEOUT);

        lists.tryEmitNext(targets("a"));
        StepVerifier.create(balancer.requestResponse(Payload.create("q")).map(p -> {
            String data = p.dataUtf8();
            p.release();
            return data;
        })).expectNext("a").verifyComplete();

        // An empty list is a list: the error now counts the targets instead.
        lists.tryEmitNext(List.of());
        StepVerifier.create(balancer.requestResponse(Payload.create("late")))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(NoTargetAvailableException.class)
                .hasMessage("no target available: 0 target(s), none connected"))
            .verify(TIMEOUT);
    }

    @Test
    void anErrorKeepsTheLastSet() {
        TestPublisher<List<Target>> lists = TestPublisher.create();
        follow(lists.flux());
        lists.next(targets("a", "b"));
        lists.error(new IllegalStateException("registry unreachable"));
        assertThat(keys()).containsExactly("a", "b");
        assertThat(balancer.connectedTargets()).containsExactly("a", "b");
        assertThat(only("a").isDisposed()).isFalse();
        assertThat(balancer.isDisposed()).as("the balancer keeps serving").isFalse();
    }

    @Test
    void completionKeepsTheLastSet() {
        // Flux.just emits and completes inside subscribe, before build returns: the balancer is ready for it.
        follow(Flux.just(targets("a"), targets("a", "b")));
        assertThat(keys()).containsExactly("a", "b");
        assertThat(balancer.connectedTargets()).containsExactly("a", "b");
    }

    @Test
    void updateStillWorksAndTheNextListWins() {
        Sinks.Many<List<Target>> lists = Sinks.many().unicast().onBackpressureBuffer();
        follow(lists.asFlux());
        lists.tryEmitNext(targets("a"));
        balancer.update(targets("a", "x"));
        assertThat(keys()).containsExactly("a", "x");
        lists.tryEmitNext(targets("b"));
        assertThat(keys()).containsExactly("b");
    }

    @Test
    void disposingTheBalancerCancelsTheSubscription() {
        TestPublisher<List<Target>> lists = TestPublisher.create();
        follow(lists.flux());
        lists.next(targets("a"));
        lists.assertSubscribers(1);
        balancer.dispose();
        lists.assertCancelled();
        assertThat(only("a").isDisposed()).isTrue();
        assertThat(keys()).isEmpty();
    }
}
