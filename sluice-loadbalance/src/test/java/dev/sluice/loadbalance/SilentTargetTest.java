package dev.sluice.loadbalance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.transport.netty.TcpClientTransport;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A target with no lease left that answers no keep-alive (a stopped or hung server) is left out of rotation while
 * another target is usable, and is back once it answers a keep-alive or leases again.
 */
class SilentTargetTest {

    private static final Duration SILENT_AFTER = Duration.ofMillis(50);

    private final Map<String, FakeConnection> fakes = new HashMap<>();
    private LeastLoadedBalancer balancer;

    @AfterEach
    void close() {
        if (balancer != null) {
            balancer.dispose();
        }
    }

    private void balancer(String... keys) {
        for (String k : keys) {
            fakes.put(k, new FakeConnection(k));
        }
        balancer = new LeastLoadedBalancer(t -> Mono.<Connection>just(fakes.get(t.key())), Duration.ofMillis(10),
            Duration.ofMillis(50), Duration.ZERO, SILENT_AFTER, Schedulers.parallel());
        balancer.update(List.of(keys).stream().map(k -> new Target(k, TcpClientTransport.create("127.0.0.1", 1)))
            .toList());
    }

    private String pick() {
        return ((FakeConnection) balancer.select()).key;
    }

    /** Lets "a" fall silent while "b" keeps answering; both have no lease left. */
    private void silenceA() throws InterruptedException {
        fakes.get("a").availability = 0.0;
        fakes.get("b").availability = 0.0;
        for (int i = 0; i < 500 && !balancer.silentTargets().contains("a"); i++) {
            Thread.sleep(5);
            fakes.get("b").keepAliveAnswers.tryEmitNext(1L);
            pick();
        }
        assertThat(balancer.silentTargets()).containsExactly("a");
    }

    @Test
    void aSilentTargetGetsNothingWhileAnotherIsUsableAndIsBackWhenItAnswers() throws InterruptedException {
        balancer("a", "b");
        silenceA();
        fakes.get("b").keepAliveAnswers.tryEmitNext(1L);
        for (int i = 0; i < 100; i++) {
            assertThat(pick()).as("round-robin over exhausted targets skips the silent one").isEqualTo("b");
        }
        fakes.get("a").keepAliveAnswers.tryEmitNext(1L);
        assertThat(balancer.silentTargets()).isEmpty();
        Map<String, Integer> picks = new HashMap<>();
        for (int i = 0; i < 100; i++) {
            picks.merge(pick(), 1, Integer::sum);
        }
        assertThat(picks).containsEntry("a", 50).containsEntry("b", 50);
    }

    @Test
    void aSilentTargetThatLeasesAgainIsBackAtOnce() throws InterruptedException {
        balancer("a", "b");
        silenceA();
        fakes.get("a").availability = 1.0;
        assertThat(pick()).isEqualTo("a");
        assertThat(balancer.silentTargets()).isEmpty();
    }

    @Test
    void whenEveryTargetIsSilentRequestsStillGoSomewhere() throws InterruptedException {
        balancer("a");
        fakes.get("a").availability = 0.0;
        for (int i = 0; i < 500 && balancer.silentTargets().isEmpty(); i++) {
            Thread.sleep(5);
            pick();
        }
        assertThat(balancer.silentTargets()).containsExactly("a");
        assertThat(pick()).as("the caller's timeout bounds the wait, not the balancer").isEqualTo("a");
    }

    @Test
    void withoutSilentAfterNoTargetIsEverSilent() throws InterruptedException {
        fakes.put("a", new FakeConnection("a"));
        balancer = new LeastLoadedBalancer(t -> Mono.<Connection>just(fakes.get(t.key())), Duration.ofMillis(10),
            Duration.ofMillis(50), Duration.ZERO, null, Schedulers.parallel());
        balancer.update(List.of(new Target("a", TcpClientTransport.create("127.0.0.1", 1))));
        fakes.get("a").availability = 0.0;
        Thread.sleep(SILENT_AFTER.toMillis() * 2);
        assertThat(pick()).isEqualTo("a");
        assertThat(balancer.silentTargets()).isEmpty();
    }

    @Test
    void silentAfterMustBePositive() {
        LeastLoadedBalancer.Builder b = LeastLoadedBalancer.builder(RSocketConnector.create());
        assertThatThrownBy(() -> b.silentAfter(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("silentAfter must be > 0, got PT0S");
        assertThatThrownBy(() -> b.silentAfter(null)).isInstanceOf(IllegalArgumentException.class)
            .hasMessage("silentAfter must be > 0, got null");
    }
}
