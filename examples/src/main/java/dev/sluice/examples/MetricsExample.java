package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.ApplicationErrorException;
import dev.sluice.micrometer.SluiceMetrics;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import reactor.core.publisher.Mono;

/**
 * Metrics with Micrometer: a server records every request in a registry, by interaction and outcome. Prints
 * {@code requests: 9 succeeded, 1 failed}. Any Micrometer registry works (Prometheus, OTLP, JMX, ...).
 */
public final class MetricsExample {

    private MetricsExample() {
    }

    public static void main(String[] args) {
        MeterRegistry registry = new SimpleMeterRegistry();
        SluiceMetrics metrics = SluiceMetrics.create(registry, Tags.of("service", "greeter"));

        CloseableServer server = RSocketServer.create(SocketAcceptor.forRequestResponse(request -> {
            String name = request.dataUtf8();
            request.release();
            return name.isEmpty() ? Mono.error(new ApplicationErrorException("no name"))
                : Mono.just(Payload.create("Hello, " + name));
        }))
            .metrics(metrics.responders())                       // one recorder per connection
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));

        Connection client = RSocketConnector.connectWith(TcpClientTransport.create("127.0.0.1", server.port()))
            .block();
        for (int i = 0; i < 10; i++) {
            client.requestResponse(Payload.create(i < 9 ? "Sluice" : ""))
                .doOnNext(Payload::release)
                .onErrorResume(ApplicationErrorException.class, e -> Mono.empty())
                .block();
        }

        System.out.printf("requests: %.0f succeeded, %.0f failed%n", count(registry, "success"),
            count(registry, "error"));
        client.dispose();
        server.dispose();
    }

    private static double count(MeterRegistry registry, String outcome) {
        return registry.get("sluice.requests").tags("interaction", "request_response", "outcome", outcome)
            .functionCounter().count();
    }
}
