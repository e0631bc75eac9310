package dev.sluice.cli.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.cli.server.ServerCommand;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.transport.netty.TcpClientTransport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice proxy --metrics-address}: a Prometheus scrape of a running proxy (rate-limited, in front of two
 * leasing servers) shows requests, refusals, the limiter's decisions and the targets, moving with the traffic.
 */
class ProxyMetricsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @Test
    void aScrapeShowsTheTrafficMoving() throws Exception {
        ServerCommand a = ServerCommand.of("127.0.0.1", 0, 1000, Duration.ofSeconds(60));
        ServerCommand b = ServerCommand.of("127.0.0.1", 0, 1000, Duration.ofSeconds(60));
        CloseableServer sa = a.start();
        CloseableServer sb = b.start();
        ProxyCommand proxy = new ProxyCommand();
        new picocli.CommandLine(proxy).parseArgs("--address", "127.0.0.1:0", "--servers",
            "127.0.0.1:" + sa.port() + ",127.0.0.1:" + sb.port(), "--metrics-address", "127.0.0.1:0",
            "--rate-limit", "1/m", "--burst", "10");
        CloseableServer sp = proxy.start();
        String url = proxy.metrics.describe();
        Connection client = RSocketConnector.create()
            .connect(TcpClientTransport.create("127.0.0.1", sp.port())).block(TIMEOUT);
        try {
            for (int i = 0; i < 500 && (proxy.balancer().availability() < 1.0
                || proxy.balancer().connectedTargets().size() < 2); i++) {
                Thread.sleep(10);
            }
            send(client, 4);
            String first = scrape(url);
            assertThat(value(first, "sluice_requests_total{interaction=\"request_response\",outcome=\"success\","
                + "role=\"proxy\"}")).isEqualTo(4.0);

            send(client, 6);
            assertThatThrownBy(() -> client.requestResponse(Payload.create("over")).block(TIMEOUT))
                .isInstanceOf(RejectedException.class).hasMessage("rate_limited");
            // The gauges of the balancer are refreshed every second.
            String second = scrape(url);
            for (int i = 0; i < 300 && value(second, "sluice_balancer_targets{role=\"proxy\",state=\"connected\"}")
                != 2.0; i++) {
                Thread.sleep(10);
                second = scrape(url);
            }
            assertThat(value(second, "sluice_requests_total{interaction=\"request_response\",outcome=\"success\","
                + "role=\"proxy\"}")).as("moved with the traffic").isEqualTo(10.0);
            assertThat(value(second, "sluice_requests_total{interaction=\"request_response\",outcome=\"rejected\","
                + "role=\"proxy\"}")).isEqualTo(1.0);
            assertThat(value(second, "sluice_requests_rejected_total{interaction=\"request_response\","
                + "reason=\"rate_limited\",role=\"proxy\"}")).isEqualTo(1.0);
            assertThat(value(second, "sluice_rate_limit_decisions_total{decision=\"allowed\",role=\"proxy\"}"))
                .isEqualTo(10.0);
            assertThat(value(second, "sluice_rate_limit_decisions_total{decision=\"rejected\",role=\"proxy\"}"))
                .isEqualTo(1.0);
            assertThat(value(second, "sluice_connections_active{role=\"proxy\"}")).isEqualTo(1.0);
            assertThat(value(second, "sluice_balancer_targets{role=\"proxy\",state=\"connected\"}")).isEqualTo(2.0);
            for (CloseableServer s : new CloseableServer[] {sa, sb}) {
                // What is left of the server's lease (a new one may have arrived since).
                assertThat(value(second, "sluice_balancer_target_availability{role=\"proxy\",target=\"127.0.0.1:"
                    + s.port() + "\"}")).isBetween(0.0, 1.0);
            }
            // Sampled: about one request per millisecond is timed, so some of 11 quick ones may be skipped.
            assertThat(value(second, "sluice_request_latency_seconds_count{interaction=\"request_response\","
                + "role=\"proxy\"}")).isBetween(1.0, 11.0);
            assertThat(second).contains("jvm_memory_used_bytes").contains("netty_allocator_memory_used");
        } finally {
            client.dispose();
            sp.dispose();
            sa.dispose();
            sb.dispose();
        }
    }

    private static void send(Connection client, int n) {
        for (int i = 0; i < n; i++) {
            client.requestResponse(Payload.create("q")).block(TIMEOUT).release();
        }
    }

    private static String scrape(String url) throws IOException, InterruptedException {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
            .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
            .startsWith("text/plain"));
        return r.body();
    }

    /** The value of the sample named exactly {@code series} (name and labels), or NaN when absent. */
    private static double value(String scrape, String series) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        return Double.NaN;
    }
}
