package dev.sluice.loadbalance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.transport.ClientTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/** Target selection on fake connections: the rules, without a network. */
class LeastLoadedBalancerTest {

    private static final ClientTransport UNUSED = () -> Mono.error(new IllegalStateException("not used"));

    private final Map<String, FakeConnection> fakes = new LinkedHashMap<>();
    private LeastLoadedBalancer balancer;

    @AfterEach
    void dispose() {
        if (balancer != null) {
            balancer.dispose();
        }
    }

    private LeastLoadedBalancer balancer(String... keys) {
        List<Target> targets = new ArrayList<>();
        for (String k : keys) {
            fakes.put(k, new FakeConnection(k));
            targets.add(new Target(k, UNUSED));
        }
        balancer = new LeastLoadedBalancer(t -> Mono.<Connection>just(fakes.get(t.key())), Duration.ofMillis(10),
            Duration.ofMillis(50), Duration.ZERO, null, Schedulers.parallel());
        balancer.update(targets);
        return balancer;
    }

    @Test
    void picksTheHighestAvailability() {
        balancer("a", "b", "c");
        fakes.get("a").availability = 0.2;
        fakes.get("b").availability = 0.9;
        fakes.get("c").availability = 0.5;
        for (int i = 0; i < 10; i++) {
            assertThat(((FakeConnection) balancer.select()).key).isEqualTo("b");
        }
    }

    @Test
    void breaksTiesRoundRobin() {
        balancer("a", "b", "c");
        Map<String, Integer> picks = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            picks.merge(((FakeConnection) balancer.select()).key, 1, Integer::sum);
        }
        assertThat(picks).containsEntry("a", 100).containsEntry("b", 100).containsEntry("c", 100);
    }

    @Test
    void fallsBackToRoundRobinWhenAllAreExhausted() {
        balancer("a", "b", "c");
        fakes.values().forEach(f -> f.availability = 0.0);
        Map<String, Integer> picks = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            picks.merge(((FakeConnection) balancer.select()).key, 1, Integer::sum);
        }
        assertThat(picks).containsEntry("a", 100).containsEntry("b", 100).containsEntry("c", 100);
    }

    @Test
    void leavesOutDrainingAndClosedTargets() {
        balancer("a", "b", "c");
        fakes.get("a").availability = 1.0;
        fakes.get("a").draining = true;
        fakes.get("b").availability = 0.1;
        fakes.get("c").availability = 0.0;
        assertThat(((FakeConnection) balancer.select()).key).isEqualTo("b");
        fakes.get("b").dispose();
        assertThat(((FakeConnection) balancer.select()).key).as("only c is usable").isEqualTo("c");
    }

    @Test
    void failsClearlyWithNoTarget() {
        balancer();
        StepVerifier.create(balancer.requestResponse(Payload.create("x")))
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(NoTargetAvailableException.class)
                .hasMessageStartingWith("no target available: 0 target(s)"))
            .verify(Duration.ofSeconds(5));
    }

    @Test
    void removedTargetsStopTakingTraffic() {
        balancer("a", "b");
        balancer.update(List.of(new Target("b", UNUSED)));
        assertThat(balancer.connectedTargets()).containsExactly("b");
        assertThat(fakes.get("a").isDisposed()).as("removed target closed").isTrue();
        for (int i = 0; i < 10; i++) {
            assertThat(((FakeConnection) balancer.select()).key).isEqualTo("b");
        }
    }

    @Test
    void theBuilderRefusesWhatCannotWork() {
        LeastLoadedBalancer.Builder b = LeastLoadedBalancer.builder(RSocketConnector.create());
        assertThatThrownBy(() -> b.drainTimeout(Duration.ofMillis(-1)))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("drainTimeout must be >= 0, got PT-0.001S");
        assertThatThrownBy(() -> b.drainTimeout(null))
            .isInstanceOf(IllegalArgumentException.class).hasMessage("drainTimeout must be >= 0, got null");
        assertThatThrownBy(() -> b.backoff(null, Duration.ofSeconds(1)))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
