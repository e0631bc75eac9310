package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.frame.FrameType;
import dev.sluice.frame.LeaseFrame;
import dev.sluice.testkit.ScriptedPeer;
import dev.sluice.testkit.ScriptedServer;
import dev.sluice.transport.netty.TcpClientTransport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import reactor.test.StepVerifier;

/**
 * {@code proxy --request-timeout}: a server that leases but never answers (a hung one) holds a client's request no
 * longer than the timeout; the client gets a clear error and the server is told CANCEL.
 */
class ProxyRequestTimeoutTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void aRequestTheServerNeverAnswersFailsAfterTheTimeoutAndIsCancelledThere() throws InterruptedException {
        try (ScriptedServer hung = ScriptedServer.start()) {
            ProxyCommand proxy = new ProxyCommand();
            new CommandLine(proxy).parseArgs("--address", "127.0.0.1:0", "--servers", "127.0.0.1:" + hung.port(),
                "--request-timeout", "200ms");
            CloseableServer running = proxy.start();
            Connection client = null;
            try (ScriptedPeer server = hung.accept()) {
                server.expectFrame(FrameType.SETUP, 0);
                ByteBuf lease = Unpooled.buffer();
                LeaseFrame.encode(lease, 60_000, 10, null);
                server.send(lease);
                for (int i = 0; i < 500 && proxy.balancer().availability() == 0.0; i++) {
                    Thread.sleep(10);
                }
                client = RSocketConnector.create()
                    .connect(TcpClientTransport.create("127.0.0.1", running.port())).block(TIMEOUT);
                StepVerifier.create(client.requestResponse(Payload.create("x")))
                    .expectErrorSatisfies(e -> assertThat(e)
                        .hasMessage("no answer from the server within 200 ms (--request-timeout)"))
                    .verify(TIMEOUT);
                int id = server.expectFrame(FrameType.REQUEST_RESPONSE, 1).streamId();
                server.expectFrame(FrameType.CANCEL, id);
            } finally {
                if (client != null) {
                    client.dispose();
                }
                running.dispose();
            }
        }
    }
}
