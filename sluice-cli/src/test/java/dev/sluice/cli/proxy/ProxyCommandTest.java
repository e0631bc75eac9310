package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.cli.address.Address;
import dev.sluice.cli.server.ServerCommand;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.transport.netty.TcpClientTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** Client → proxy → two leasing saturable servers, over loopback TCP. */
class ProxyCommandTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void rateLimitsClientsBeforeForwarding() {
        ServerCommand a = ServerCommand.of("127.0.0.1", 0, 1000, Duration.ofSeconds(60));
        CloseableServer sa = a.start();
        ProxyCommand proxy = new ProxyCommand();
        new picocli.CommandLine(proxy).parseArgs("--address", "127.0.0.1:0", "--servers", "127.0.0.1:" + sa.port(),
            "--rate-limit", "1/m", "--burst", "2");
        CloseableServer sp = proxy.start();
        Connection client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", sp.port())).block(TIMEOUT);
        try {
            for (int i = 0; i < 200 && proxy.balancer().connectedTargets().isEmpty(); i++) {
                Thread.sleep(10);
            }
            client.requestResponse(Payload.create("1")).block(TIMEOUT).release();
            client.requestResponse(Payload.create("2")).block(TIMEOUT).release();
            assertThatThrownBy(() -> client.requestResponse(Payload.create("3")).block(TIMEOUT))
                .isInstanceOf(RejectedException.class).hasMessage("rate_limited");
            assertThat(a.stats().accepted()).as("the refused request never left the proxy").isEqualTo(2);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        } finally {
            client.dispose();
            sp.dispose();
            sa.dispose();
        }
    }

    @Test
    void aGracefulCloseLetsTheRequestsInFlightThroughItFinish() throws InterruptedException {
        ServerCommand a = new ServerCommand();
        new picocli.CommandLine(a).parseArgs("--address", "127.0.0.1:0", "--lease-allowed", "100", "--lease-ttl",
            "60s", "--concurrency-delay", "=> 400");
        CloseableServer sa = a.start();
        ProxyCommand proxy = ProxyCommand.of(Address.tcp("127.0.0.1", 0),
            List.of(Address.tcp("127.0.0.1", sa.port())));
        CloseableServer sp = proxy.start();
        Connection client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", sp.port())).block(TIMEOUT);
        try {
            for (int i = 0; i < 500 && proxy.balancer().availability() < 1.0; i++) {
                Thread.sleep(10);
            }
            var answer = client.requestResponse(Payload.create("slow")).toFuture();
            // Forwarded once the proxy has used a permit of the server's lease.
            for (int i = 0; i < 500 && proxy.balancer().availability() == 1.0; i++) {
                Thread.sleep(2);
            }
            assertThat(proxy.balancer().availability()).as("forwarded").isLessThan(1.0);
            sp.closeGracefully(Duration.ofSeconds(10)).block(TIMEOUT);
            Payload p = answer.join();
            assertThat(p.dataUtf8()).isEqualTo("127.0.0.1:" + sa.port());
            p.release();
            assertThat(proxy.balancer().isDisposed()).as("stopped after the drain").isTrue();
        } finally {
            client.dispose();
            sp.dispose();
            sa.dispose();
        }
    }

    @Test
    void requestsArrivingDuringTheDrainAreRefusedNotLost() throws InterruptedException {
        ServerCommand a = ServerCommand.of("127.0.0.1", 0, 100_000, Duration.ofSeconds(60));
        CloseableServer sa = a.start();
        ProxyCommand proxy = ProxyCommand.of(Address.tcp("127.0.0.1", 0),
            List.of(Address.tcp("127.0.0.1", sa.port())));
        CloseableServer sp = proxy.start();
        Connection client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", sp.port())).block(TIMEOUT);
        Map<String, Integer> outcomes = new ConcurrentSkipListMap<>();
        try {
            for (int i = 0; i < 500 && proxy.balancer().availability() < 1.0; i++) {
                Thread.sleep(10);
            }
            // A request every millisecond or so; the close starts half-way through.
            List<CompletableFuture<?>> all = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                if (i == 150) {
                    sp.closeGracefully(Duration.ofSeconds(10)).subscribe();
                }
                all.add(client.requestResponse(Payload.create("q")).doOnNext(Payload::release)
                    .doOnSuccess(p -> outcomes.merge("ok", 1, Integer::sum))
                    .doOnError(e -> outcomes.merge(e.getClass().getSimpleName() + ": " + e.getMessage(), 1,
                        Integer::sum))
                    .onErrorResume(e -> Mono.empty()).toFuture());
                Thread.sleep(1);
            }
            all.forEach(CompletableFuture::join);
            assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(300);
            assertThat(outcomes.keySet()).as("answered, or refused as new requests of a closing connection: %s",
                outcomes).allMatch(k -> k.equals("ok") || k.contains("connection is closing"));
            assertThat(outcomes).containsKey("ok");
        } finally {
            client.dispose();
            sp.dispose();
            sa.dispose();
        }
    }

    @Test
    void spreadsOverTheLeasesAndPassesRejectionsBackUnchanged() throws InterruptedException {
        ServerCommand a = ServerCommand.of("127.0.0.1", 0, 5, Duration.ofSeconds(60));
        ServerCommand b = ServerCommand.of("127.0.0.1", 0, 5, Duration.ofSeconds(60));
        CloseableServer sa = a.start();
        CloseableServer sb = b.start();
        ProxyCommand proxy = ProxyCommand.of(Address.tcp("127.0.0.1", 0), List.of(
            Address.tcp("127.0.0.1", sa.port()), Address.tcp("127.0.0.1", sb.port())));
        CloseableServer sp = proxy.start();
        Connection client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", sp.port())).block(TIMEOUT);
        try {
            for (int i = 0; i < 500 && proxy.balancer().availability() < 1.0
                || proxy.balancer().connectedTargets().size() < 2; i++) {
                Thread.sleep(10);
            }
            Map<String, Integer> perServer = new TreeMap<>();
            for (int i = 0; i < 10; i++) {
                Payload p = client.requestResponse(Payload.create("q")).block(TIMEOUT);
                perServer.merge(p.dataUtf8(), 1, Integer::sum);
                p.release();
            }
            assertThat(perServer).containsOnly(Map.entry("127.0.0.1:" + sa.port(), 5),
                Map.entry("127.0.0.1:" + sb.port(), 5));
            assertThatThrownBy(() -> client.requestResponse(Payload.create("over")).block(TIMEOUT))
                .isInstanceOf(RejectedException.class).hasMessage("lease_exhausted");
            assertThat(a.stats().accepted() + b.stats().accepted()).isEqualTo(10);
            assertThat(a.stats().rejected() + b.stats().rejected()).isEqualTo(1);
        } finally {
            client.dispose();
            sp.dispose();
            sa.dispose();
            sb.dispose();
        }
    }
}
