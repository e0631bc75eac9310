package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.BenchPki;
import dev.sluice.bench.throughput.internal.ChildOptions;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocket;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * The Sluice mains' transports, on loopback: a request-response crosses each of them, TLS with the certificates
 * {@link BenchPki} makes for a run (the client checks that they are for 127.0.0.1).
 */
class SluiceTransportsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    static Path certificates;
    @TempDir
    Path sockets;

    private CloseableServer server;
    private Connection connection;

    @BeforeAll
    static void pki() throws IOException {
        BenchPki.write(certificates);
    }

    @AfterEach
    void stop() {
        if (connection != null) {
            connection.dispose();
        }
        if (server != null) {
            server.dispose();
            server.onClose().block(TIMEOUT);
        }
    }

    private List<String> args(Transport t) {
        List<String> a = new ArrayList<>(List.of("--transport", t.option()));
        switch (t) {
            case TLS -> a.addAll(List.of("--tls", certificates.toString()));
            case UNIX -> a.addAll(List.of("--unix-path", sockets.resolve("t.sock").toString()));
            default -> { }
        }
        return a;
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aRequestResponseCrossesEveryTransport(Transport t) {
        // An echo: the request is the handler's to hand back, and Sluice releases it once written.
        RSocket echo = new RSocket() {
            @Override
            public Mono<Payload> requestResponse(Payload payload) {
                return Mono.just(payload);
            }
        };
        server = RSocketServer.create().acceptor(SocketAcceptor.with(echo))
            .bind(SluiceTransports.server(ChildOptions.parse(args(t).toArray(String[]::new))))
            .block(TIMEOUT);
        List<String> client = args(t);
        client.addAll(List.of("--port", Integer.toString(Math.max(server.port(), 0))));
        connection = RSocketConnector.create()
            .connect(SluiceTransports.client(ChildOptions.parse(client.toArray(String[]::new))))
            .block(TIMEOUT);
        StepVerifier.create(connection.requestResponse(Payload.create("over " + t.option()))
                .map(p -> {
                    try {
                        return p.dataUtf8();
                    } finally {
                        p.release();
                    }
                }))
            .expectNext("over " + t.option())
            .expectComplete()
            .verify(TIMEOUT);
    }
}
