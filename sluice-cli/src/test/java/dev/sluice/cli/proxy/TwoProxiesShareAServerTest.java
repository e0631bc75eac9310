package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Two proxies in front of one server leasing 10 requests per minute: the server's capacity is split between them,
 * not given to each, so the pair gets 10 requests through, not 20.
 */
class TwoProxiesShareAServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void theServersLeaseIsSharedNotMultiplied() throws InterruptedException {
        ServerCommand server = new ServerCommand();
        new CommandLine(server).parseArgs("--address", "127.0.0.1:0", "--concurrency-delay", "=> 1",
            "--lease-allowed", "10", "--lease-ttl", "60s");
        CloseableServer running = server.start();
        List<CloseableServer> proxies = new ArrayList<>();
        List<Connection> clients = new ArrayList<>();
        try {
            List<ProxyCommand> commands = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                ProxyCommand proxy = new ProxyCommand();
                new CommandLine(proxy).parseArgs("--address", "127.0.0.1:0", "--servers",
                    "127.0.0.1:" + running.port());
                proxies.add(proxy.start());
                commands.add(proxy);
            }
            // The first proxy's lease comes at once; the second's when the period starts (within a second).
            for (int i = 0; i < 500 && commands.stream().anyMatch(p -> p.balancer().availability() == 0.0); i++) {
                Thread.sleep(10);
            }
            assertThat(commands).allSatisfy(p -> assertThat(p.balancer().availability()).isPositive());
            int answered = 0;
            int refused = 0;
            for (CloseableServer proxy : proxies) {
                Connection client = RSocketConnector.create()
                    .connect(TcpClientTransport.create("127.0.0.1", proxy.port())).block(TIMEOUT);
                clients.add(client);
                for (int i = 0; i < 10; i++) {
                    try {
                        client.requestResponse(Payload.create("r")).block(TIMEOUT).release();
                        answered++;
                    } catch (RejectedException e) {
                        assertThat(e).hasMessage("lease_exhausted");
                        refused++;
                    }
                }
            }
            assertThat(answered).as("one capacity of 10 for both proxies").isEqualTo(10);
            assertThat(refused).isEqualTo(10);
            assertThat(server.stats().accepted()).isEqualTo(10);
            assertThat(server.stats().rejected()).isEqualTo(10);
        } finally {
            clients.forEach(Connection::dispose);
            proxies.forEach(CloseableServer::dispose);
            running.dispose();
        }
    }
}
