package dev.sluice.cli.proxy;

import dev.sluice.core.CloseableServer;
import java.net.SocketAddress;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * The proxy's listening server and what stands behind it (the balancer, its lookups, its gauges) as one server.
 * A graceful close drains the clients' requests first — they still need the connections to the servers — and
 * only then stops the balancer; closing the balancer with the listener failed every request in flight at once.
 */
final class ProxyServer implements CloseableServer {

    private final CloseableServer listener;
    private final Runnable stopBalancer;

    ProxyServer(CloseableServer listener, Runnable stopBalancer) {
        this.listener = listener;
        this.stopBalancer = stopBalancer;
    }

    @Override
    public SocketAddress address() {
        return listener.address();
    }

    @Override
    public int connectionCount() {
        return listener.connectionCount();
    }

    @Override
    public Mono<Void> closeGracefully(Duration drainTimeout) {
        // Stopped before the returned Mono completes, so that whoever waits for it finds the balancer closed.
        Mono<Void> stop = Mono.fromRunnable(stopBalancer);
        return listener.closeGracefully(drainTimeout)
            .onErrorResume(e -> stop.then(Mono.error(e)))
            .then(stop)
            .doOnCancel(stopBalancer::run);
    }

    @Override
    public Mono<Void> onClose() {
        return listener.onClose();
    }

    @Override
    public void dispose() {
        listener.dispose();
        stopBalancer.run();
    }

    @Override
    public boolean isDisposed() {
        return listener.isDisposed();
    }
}
