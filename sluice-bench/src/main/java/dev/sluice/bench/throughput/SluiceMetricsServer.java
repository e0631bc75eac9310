package dev.sluice.bench.throughput;

import dev.sluice.bench.throughput.internal.BenchMain;
import dev.sluice.core.RSocketServer;
import dev.sluice.micrometer.SluiceMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * {@link SluiceServer} with metrics on, as {@code --metrics-address} sets them up: {@link SluiceMetrics} in a
 * Prometheus registry, recording every request of every connection. Its cells against {@link SluiceServer}'s
 * are the cost of metrics.
 */
public final class SluiceMetricsServer {

    private SluiceMetricsServer() {
    }

    public static void main(String[] args) {
        SluiceMetrics metrics = SluiceMetrics.create(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        BenchMain.server(args, options -> SluiceServer.start(options,
            RSocketServer.create().metrics(metrics.responders())), SluiceTransports.ALL);
    }
}
