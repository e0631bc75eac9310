package dev.sluice.cli;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.core.RSocketServer;
import dev.sluice.loadbalance.LeastLoadedBalancer;
import dev.sluice.micrometer.SluiceMetrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.netty4.NettyAllocatorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * {@code --metrics-address}: serves the process's metrics as Prometheus text at {@code http://HOST:PORT/metrics}:
 * Sluice's meters (see {@link SluiceMetrics}), the JVM's (memory, GC, threads, CPU) and Netty's pooled allocator
 * (direct memory). Off by default. A picocli mixin for the serving commands.
 */
public final class MetricsOptions implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger("sluice.metrics");

    @Option(names = "--metrics-address", paramLabel = "HOST:PORT", converter = HostPort.Converter.class,
        description = "serve Prometheus metrics at http://HOST:PORT/metrics (default: off)")
    HostPort address;

    private volatile HttpServer http;
    private volatile ExecutorService httpThread;
    private volatile JvmGcMetrics gc;
    private SluiceMetrics metrics;

    /** Whether {@code --metrics-address} was given. */
    public boolean enabled() {
        return address != null;
    }

    /**
     * Starts serving, with every Sluice meter tagged {@code role=ROLE}; null when metrics are off.
     *
     * @throws IllegalStateException when the address cannot be listened on (a run-time failure: exit 1)
     */
    public SluiceMetrics start(String role) {
        if (!enabled()) {
            return null;
        }
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(registry);
        JvmGcMetrics gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);
        gc = gcMetrics;
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new NettyAllocatorMetrics(PooledByteBufAllocator.DEFAULT).bindTo(registry);
        try {
            HttpServer server = HttpServer.create(address.toAddress(), 16);
            server.createContext("/metrics", exchange -> {
                byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            httpThread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "sluice-metrics-http");
                t.setDaemon(true);
                return t;
            });
            server.setExecutor(httpThread);
            server.start();
            http = server;
        } catch (BindException e) {
            close();
            throw new IllegalStateException("cannot serve metrics on " + address + ": address already in use");
        } catch (IOException e) {
            close();
            throw new IllegalStateException("cannot serve metrics on " + address + ": "
                + Problems.describe(e));
        }
        metrics = SluiceMetrics.create(registry, Tags.of("role", role));
        return metrics;
    }

    /** {@code server} recording its connections' requests, when metrics are on. */
    public RSocketServer apply(RSocketServer server) {
        return metrics == null ? server : server.metrics(metrics.responders());
    }

    /** Publishes {@code balancer}'s targets, when metrics are on; dispose the result to stop. */
    public Disposable watch(LeastLoadedBalancer balancer) {
        return metrics == null ? () -> { } : metrics.balancer(balancer, Duration.ofSeconds(1));
    }

    /** The address metrics are served at, for the startup line: {@code http://127.0.0.1:9100/metrics} or off. */
    public String describe() {
        HttpServer s = http;
        if (s == null) {
            return "off";
        }
        InetSocketAddress a = s.getAddress();
        return "http://" + a.getHostString() + ":" + a.getPort() + "/metrics";
    }

    /** Stops serving. Idempotent. */
    @Override
    public void close() {
        HttpServer s = http;
        http = null;
        if (s != null) {
            s.stop(0);
        }
        ExecutorService t = httpThread;
        httpThread = null;
        if (t != null) {
            t.shutdown();
        }
        JvmGcMetrics g = gc;
        gc = null;
        if (g != null) {
            g.close();
        }
    }

    /** {@link #close() Closes} this once {@code closed} terminates. */
    public void closeWhen(Mono<Void> closed) {
        closed.onErrorResume(e -> Mono.empty()).doFinally(s -> close()).subscribe();
    }
}
