package dev.sluice.examples;

import dev.sluice.core.CloseableServer;
import dev.sluice.core.Leases;
import dev.sluice.core.Payload;
import dev.sluice.core.RSocketConnector;
import dev.sluice.core.RSocketServer;
import dev.sluice.core.SocketAcceptor;
import dev.sluice.core.exceptions.RejectedException;
import dev.sluice.loadbalance.LeastLoadedBalancer;
import dev.sluice.loadbalance.Target;
import dev.sluice.transport.netty.TcpClientTransport;
import dev.sluice.transport.netty.TcpServerTransport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Leases with a balancer: two servers lease their capacity (3 and 7 requests per minute), and a least-loaded
 * balancer sends each request to the server with the most lease left. Once both leases are used up, a request waits
 * for a new lease (here at most 50 ms), then is refused without ever being sent ({@code lease_exhausted}): the
 * servers never see the work they could not take. Prints {@code 15 requests: {large=7, rejected=5, small=3}}.
 */
public final class LeaseBalancerExample {

    private static final int REQUESTS = 15;

    private LeaseBalancerExample() {
    }

    /** A server that answers with its name and grants {@code allowed} requests per minute. */
    private static CloseableServer server(String name, int allowed) {
        return RSocketServer.create(SocketAcceptor.forRequestResponse(request -> {
            request.release();
            return Mono.just(Payload.create(name));
        }))
            .lease(scheduler -> Leases.of(Leases.fixed(Duration.ofMinutes(1), allowed, scheduler)))
            .bindNow(TcpServerTransport.create("127.0.0.1", 0));
    }

    public static void main(String[] args) throws InterruptedException {
        CloseableServer small = server("small", 3);
        CloseableServer large = server("large", 7);

        // lease(): ask each server for leases; the balancer reads what is left of them as availability.
        // leaseWait: how many requests may wait for a permit, and how long (the default: 256, 1 s).
        LeastLoadedBalancer balancer = LeastLoadedBalancer.builder(RSocketConnector.create().lease()
                .leaseWait(16, Duration.ofMillis(50)))
            .build(List.of(
                new Target("small", TcpClientTransport.create("127.0.0.1", small.port())),
                new Target("large", TcpClientTransport.create("127.0.0.1", large.port()))));
        awaitLeases(balancer);

        Map<String, Integer> outcomes = new TreeMap<>(Map.of("small", 0, "large", 0, "rejected", 0));
        Flux.range(0, REQUESTS)
            .concatMap(i -> balancer.requestResponse(Payload.create("work"))
                .map(answer -> {
                    String servedBy = answer.dataUtf8();
                    answer.release();
                    return servedBy;
                })
                .onErrorResume(RejectedException.class, e -> Mono.just("rejected")))
            .doOnNext(outcome -> outcomes.merge(outcome, 1, Integer::sum))
            .blockLast();
        System.out.println(REQUESTS + " requests: " + outcomes);

        balancer.dispose();
        small.dispose();
        large.dispose();
    }

    /** Waits (up to 10 s) until both servers are connected and a lease has arrived. */
    private static void awaitLeases(LeastLoadedBalancer balancer) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (balancer.connectedTargets().size() < 2 || balancer.availability() == 0.0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("servers not leasing after 10 s: " + balancer.connectedTargets());
            }
            Thread.sleep(10);
        }
    }
}
