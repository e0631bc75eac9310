package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.testkit.Stderr;
import dev.sluice.loadbalance.Target;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * The target lists of {@code --servers} on virtual time, with a resolver whose answers the test sets: each
 * {@code refresh()} is one period, and the lookups it starts answer before it returns.
 */
class ServerDiscoveryTest {

    private static final Duration REFRESH = Duration.ofSeconds(5);

    private final VirtualTimeScheduler time = VirtualTimeScheduler.create();
    /** The current answer per name; a name without one does not resolve. */
    private final Map<String, List<String>> dns = new ConcurrentHashMap<>();
    private final AtomicInteger lookups = new AtomicInteger();
    private final Resolver resolver = name -> {
        lookups.incrementAndGet();
        List<String> answer = dns.get(name);
        if (answer == null) {
            return Mono.error(new UnknownHostException("unknown host"));
        }
        List<InetAddress> out = new ArrayList<>();
        for (String a : answer) {
            try {
                out.add(InetAddress.getByName(a)); // IP literals: no lookup
            } catch (UnknownHostException e) {
                throw new AssertionError(e);
            }
        }
        return Mono.just(out);
    };
    private final List<List<String>> emitted = new ArrayList<>();
    private Disposable subscription;

    @AfterEach
    void stop() {
        if (subscription != null) {
            subscription.dispose();
        }
        time.dispose();
    }

    private void follow(String... servers) {
        List<ServerAddress> parsed = new ArrayList<>();
        for (String s : servers) {
            parsed.add(ServerAddress.parse(s));
        }
        subscription = new ServerDiscovery(parsed, REFRESH, resolver, time).targets()
            .subscribe(list -> emitted.add(list.stream().map(Target::key).toList()));
        time.advanceTime(); // the first lookups are due at once
    }

    private void refresh() {
        time.advanceTimeBy(REFRESH);
    }

    private List<String> last() {
        return emitted.get(emitted.size() - 1);
    }

    @Test
    void aChangedAnswerAddsAndRemovesTargets() {
        dns.put("pool", List.of("10.0.0.1", "10.0.0.2"));
        follow("dns:pool:7001");
        assertThat(emitted).containsExactly(List.of("10.0.0.1:7001", "10.0.0.2:7001"));

        dns.put("pool", List.of("10.0.0.2", "10.0.0.3"));
        refresh();
        assertThat(last()).containsExactly("10.0.0.2:7001", "10.0.0.3:7001");

        dns.put("pool", List.of("10.0.0.3", "10.0.0.2")); // DNS rotates its answers: the same set
        refresh();
        refresh();
        assertThat(emitted).as("an unchanged set is not emitted again").hasSize(2);
        assertThat(lookups).hasValue(4);
    }

    @Test
    void fixedServersComeFirstAndStayWhateverTheNamesDo() {
        follow("127.0.0.1:7002", "dns:pool:7002", "localhost:7003");
        assertThat(emitted).as("the name does not resolve yet: the fixed servers only")
            .containsExactly(List.of("127.0.0.1:7002", "localhost:7003"));

        dns.put("pool", List.of("127.0.0.1", "10.0.0.9"));
        refresh();
        assertThat(last()).as("a key named twice is one target")
            .containsExactly("127.0.0.1:7002", "10.0.0.9:7002", "localhost:7003");
    }

    @Test
    void aNameThatStopsResolvingKeepsItsLastSetAndIsLoggedOncePerOutage() {
        dns.put("pool", List.of("10.0.0.1"));
        String log = Stderr.during(() -> {
            follow("dns:pool:7001");
            dns.remove("pool");
            for (int i = 0; i < 3; i++) {
                refresh();
            }
            dns.put("pool", List.of()); // resolves, but to nothing: as bad as not resolving
            refresh();
            dns.put("pool", List.of("10.0.0.4"));
            refresh();
            dns.remove("pool");
            refresh();
        });
        assertThat(emitted).containsExactly(List.of("10.0.0.1:7001"), List.of("10.0.0.4:7001"));
        assertThat(count(log, "dns pool: cannot resolve (unknown host); keeping its last 1 target(s), retrying"
            + " every 5s")).as(log).isEqualTo(2);
        assertThat(count(log, "cannot resolve")).as("one line per outage, two outages: %s", log).isEqualTo(2);
        assertThat(count(log, "dns pool resolves again: 1 address(es)")).as(log).isEqualTo(1);
        assertThat(log).contains("target 10.0.0.1:7001 added (dns pool)", "target 10.0.0.4:7001 added (dns pool)",
            "target 10.0.0.1:7001 removed: draining");
    }

    @Test
    void aNameUnresolvableAtStartupSaysSoOnceAndKeepsTrying() {
        String log = Stderr.during(() -> {
            follow("dns:later:7001");
            refresh();
            refresh();
            dns.put("later", List.of("10.0.0.1"));
            refresh();
        });
        assertThat(emitted).containsExactly(List.of("10.0.0.1:7001"));
        assertThat(count(log, "dns later: cannot resolve (unknown host); no target from it yet, retrying every 5s"))
            .as(log).isEqualTo(1);
        assertThat(count(log, "cannot resolve")).as(log).isEqualTo(1);
    }

    @Test
    void oneFamilyPerNameIpv4First() {
        dns.put("dual", List.of("::1", "127.0.0.1", "fd00::7"));
        dns.put("v6", List.of("fd00::7", "::1"));
        follow("dns:dual:7001", "dns:v6:7002");
        assertThat(last()).containsExactly("127.0.0.1:7001", "[::1]:7002", "[fd00::7]:7002");
    }

    @Test
    void lookupsOfANameNeverOverlap() {
        Sinks.One<List<InetAddress>> slow = Sinks.one();
        AtomicInteger started = new AtomicInteger();
        subscription = new ServerDiscovery(List.of(ServerAddress.parse("dns:slow:7001")), REFRESH, name -> {
            started.incrementAndGet();
            return slow.asMono();
        }, time).targets().subscribe(list -> emitted.add(list.stream().map(Target::key).toList()));
        time.advanceTime();
        for (int i = 0; i < 5; i++) {
            refresh();
        }
        assertThat(started).as("periods that elapse during a lookup are skipped").hasValue(1);
        slow.tryEmitValue(List.of(InetAddress.getLoopbackAddress()));
        assertThat(emitted).hasSize(1);
        refresh();
        assertThat(started).hasValue(2);
    }

    @Test
    void cancellingStopsTheLookups() {
        dns.put("pool", List.of("10.0.0.1"));
        follow("dns:pool:7001");
        subscription.dispose();
        int before = lookups.get();
        refresh();
        refresh();
        assertThat(lookups).hasValue(before);
    }

    private static int count(String text, String line) {
        int n = 0;
        for (int i = text.indexOf(line); i >= 0; i = text.indexOf(line, i + 1)) {
            n++;
        }
        return n;
    }
}
