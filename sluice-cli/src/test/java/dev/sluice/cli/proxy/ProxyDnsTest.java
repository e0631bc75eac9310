package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.cli.server.ServerCommand;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.transport.netty.TcpClientTransport;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

/**
 * {@code proxy --servers dns:pool:PORT} with a resolver the test answers and refreshes on virtual time, in front of
 * a real leasing server on 127.0.0.1. The other address, 127.0.0.2, is loopback too and has no server: it only
 * shows as a target.
 */
class ProxyDnsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final Duration REFRESH = Duration.ofSeconds(5);

    /** The current answer for "pool"; null: it does not resolve. */
    private final AtomicReference<List<String>> pool = new AtomicReference<>();
    private final Resolver resolver = name -> {
        List<String> ips = name.equals("pool") ? pool.get() : null;
        if (ips == null) {
            return Mono.error(new UnknownHostException("unknown host"));
        }
        return Mono.fromCallable(() -> {
            InetAddress[] out = new InetAddress[ips.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = InetAddress.getByName(ips.get(i)); // IP literals: no lookup
            }
            return List.of(out);
        });
    };

    /** Every target of the proxy's balancer, connected or not, in the order added. */
    private static List<String> targets(ProxyCommand proxy) {
        return List.copyOf(proxy.balancer().availabilityByTarget().keySet());
    }

    private ProxyCommand proxy(VirtualTimeScheduler time, String servers) {
        ProxyCommand proxy = new ProxyCommand();
        new CommandLine(proxy).parseArgs("--address", "127.0.0.1:0", "--servers", servers, "--dns-refresh", "5s");
        proxy.resolver = resolver;
        proxy.refreshScheduler = time;
        return proxy;
    }

    @Test
    void followsTheNameAsItsAddressesChange() throws InterruptedException {
        ServerCommand a = ServerCommand.of("127.0.0.1", 0, 1000, Duration.ofSeconds(60));
        CloseableServer sa = a.start();
        String atA = "127.0.0.1:" + sa.port();
        String atB = "127.0.0.2:" + sa.port();
        VirtualTimeScheduler time = VirtualTimeScheduler.create();
        pool.set(List.of("127.0.0.1"));
        ProxyCommand proxy = proxy(time, "dns:pool:" + sa.port());
        CloseableServer sp = proxy.start();
        Connection client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", sp.port())).block(TIMEOUT);
        try {
            time.advanceTime();
            assertThat(targets(proxy)).containsExactly(atA);
            for (int i = 0; i < 500 && !proxy.balancer().connectedTargets().contains(atA); i++) {
                Thread.sleep(10);
            }
            Payload answer = client.requestResponse(Payload.create("q")).block(TIMEOUT);
            assertThat(answer.dataUtf8()).isEqualTo(atA);
            answer.release();

            pool.set(List.of("127.0.0.2", "127.0.0.1"));
            time.advanceTimeBy(REFRESH);
            assertThat(targets(proxy)).as("added").containsExactly(atA, atB);
            assertThat(proxy.balancer().connectedTargets()).as("the kept target keeps its connection")
                .contains(atA);

            pool.set(null);
            time.advanceTimeBy(REFRESH);
            assertThat(targets(proxy)).as("a failed lookup keeps the set").containsExactly(atA, atB);

            pool.set(List.of("127.0.0.2"));
            time.advanceTimeBy(REFRESH);
            assertThat(targets(proxy)).as("removed").containsExactly(atB);
            assertThat(proxy.balancer().connectedTargets()).doesNotContain(atA);
            assertThatThrownBy(() -> client.requestResponse(Payload.create("q")).block(TIMEOUT))
                .as("nothing reaches the removed server; nothing listens on 127.0.0.2")
                .isInstanceOf(ApplicationErrorException.class)
                .hasMessageContaining("no target available: 1 target(s), none connected; " + atB);
            assertThat(a.stats().accepted()).isEqualTo(1);
        } finally {
            client.dispose();
            sp.dispose();
            sa.dispose();
            time.dispose();
        }
    }

    @Test
    void startsWhenTheNameDoesNotResolveAndSaysSoToClients() {
        VirtualTimeScheduler time = VirtualTimeScheduler.create();
        ProxyCommand proxy = proxy(time, "dns:pool:7001");
        CloseableServer sp = proxy.start();
        Connection client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", sp.port())).block(TIMEOUT);
        try {
            time.advanceTime();
            time.advanceTimeBy(REFRESH);
            assertThat(targets(proxy)).isEmpty();
            assertThatThrownBy(() -> client.requestResponse(Payload.create("q")).block(TIMEOUT))
                .isInstanceOf(ApplicationErrorException.class)
                .hasMessageContaining("no target available: no target list received yet");
        } finally {
            client.dispose();
            sp.dispose();
            time.dispose();
        }
    }
}
