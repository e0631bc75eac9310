package dev.sluice.transport.netty;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

/** A failed connect says why in one line a user can act on, without the socket layer's class names or errno. */
class ConnectFailureMessageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void aClosedPortIsConnectionRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        StepVerifier.create(TcpClientTransport.create("127.0.0.1", port).connect())
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ConnectException.class)
                .hasMessage("cannot connect to 127.0.0.1:" + port + ": connection refused"))
            .verify(TIMEOUT);
    }

    @Test
    void aNameThatDoesNotResolveIsUnknownHost() {
        // .invalid never resolves (RFC 6761), so no DNS server is needed to fail.
        StepVerifier.create(TcpClientTransport.create("no-such-host.invalid", 7001).connect())
            .expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ConnectException.class)
                .hasMessage("cannot connect to no-such-host.invalid:7001: unknown host"))
            .verify(TIMEOUT);
    }
}
