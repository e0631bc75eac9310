package dev.sluice.micrometer;

import dev.sluice.core.RequestGate;
import dev.sluice.core.ResponderMetrics;
import dev.sluice.loadbalance.LeastLoadedBalancer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import reactor.core.Disposable;

/**
 * Sluice's meters in a Micrometer {@link MeterRegistry}: install {@link #responders()} on a server (or connector),
 * wrap request gates with {@link #gate}, watch balancers with {@link #balancer}.
 *
 * <pre>{@code
 * SluiceMetrics metrics = SluiceMetrics.create(registry);
 * RSocketServer.create(acceptor).metrics(metrics.responders()).bindNow(transport);
 * }</pre>
 *
 * <table>
 *   <caption>The meters (Micrometer names; Prometheus shows {@code sluice_requests_total} and so on)</caption>
 *   <tr><th>name</th><th>type</th><th>tags</th></tr>
 *   <tr><td>sluice.connections.active</td><td>gauge</td><td></td></tr>
 *   <tr><td>sluice.connections.opened / .closed</td><td>counter</td><td></td></tr>
 *   <tr><td>sluice.requests</td><td>counter</td><td>interaction, outcome (success, error, rejected, canceled)</td></tr>
 *   <tr><td>sluice.requests.rejected</td><td>counter</td><td>interaction, reason</td></tr>
 *   <tr><td>sluice.request.latency</td><td>timer, histogram</td><td>interaction; sampled</td></tr>
 *   <tr><td>sluice.leases.sent</td><td>counter</td><td></td></tr>
 *   <tr><td>sluice.lease.permits</td><td>counter</td><td>state (granted, used, unused)</td></tr>
 *   <tr><td>sluice.rate.limit.decisions</td><td>counter</td><td>decision (allowed, delayed, rejected,
 *       unavailable)</td></tr>
 *   <tr><td>sluice.balancer.target.availability</td><td>gauge</td><td>target</td></tr>
 *   <tr><td>sluice.balancer.targets</td><td>gauge</td><td>state (known, connected)</td></tr>
 * </table>
 *
 * <p>Requests are counted exactly; latency is sampled (see {@link ResponderMetrics}): about one request per
 * millisecond per event loop is timed, every request when there are fewer. The timer's count is therefore the
 * number of samples — take request rates from {@code sluice.requests}. Thread-safe.
 */
public final class SluiceMetrics {

    private final MeterRegistry registry;
    private final Tags tags;
    private final RequestMeters requests;
    private final AtomicInteger active = new AtomicInteger();
    private final Counter opened;
    private final Counter closed;
    private final Counter leasesSent;
    private final Counter permitsGranted;
    private final Counter permitsUsed;
    private final Counter permitsUnused;

    private SluiceMetrics(MeterRegistry registry, Tags tags) {
        this.registry = registry;
        this.tags = tags;
        this.requests = new RequestMeters(registry, tags);
        Gauge.builder("sluice.connections.active", active, AtomicInteger::get)
            .description("connections open now").tags(tags).register(registry);
        opened = Counter.builder("sluice.connections.opened").description("connections set up")
            .tags(tags).register(registry);
        closed = Counter.builder("sluice.connections.closed").description("connections closed")
            .tags(tags).register(registry);
        leasesSent = Counter.builder("sluice.leases.sent").description("LEASE frames sent")
            .tags(tags).register(registry);
        permitsGranted = permits("granted", "request permits granted by the leases sent");
        permitsUsed = permits("used", "permits of ended leases that admitted a request");
        permitsUnused = permits("unused", "permits of ended leases that expired unused");
    }

    /** Meters in {@code registry}, without extra tags. */
    public static SluiceMetrics create(MeterRegistry registry) {
        return new SluiceMetrics(registry, Tags.empty());
    }

    /** Meters in {@code registry}, each with {@code tags} (for example the role: server, proxy). */
    public static SluiceMetrics create(MeterRegistry registry, Iterable<Tag> tags) {
        return new SluiceMetrics(registry, Tags.of(tags));
    }

    /** For {@code RSocketServer.metrics(...)} or {@code RSocketConnector.metrics(...)}: one recorder per connection. */
    public Supplier<ResponderMetrics> responders() {
        return () -> {
            active.incrementAndGet();
            opened.increment();
            return new ConnectionRecorder(this, requests);
        };
    }

    /** {@code gate}, counting its decisions in {@code sluice.rate.limit.decisions}. */
    public RequestGate gate(RequestGate gate) {
        return new MeteredGate(gate, registry, tags);
    }

    /**
     * Publishes {@code balancer}'s targets: availability per target and how many are known and connected, read
     * every {@code refresh}. Dispose the result to stop (targets removed meanwhile leave the gauge at once).
     */
    public Disposable balancer(LeastLoadedBalancer balancer, Duration refresh) {
        return new BalancerGauges(balancer, registry, tags).start(refresh);
    }

    /** The registry the meters are in. */
    public MeterRegistry registry() {
        return registry;
    }

    void leaseSent(int permits) {
        leasesSent.increment();
        permitsGranted.increment(permits);
    }

    void leaseEnded(int used, int unused) {
        permitsUsed.increment(used);
        permitsUnused.increment(unused);
    }

    void connectionClosed() {
        active.decrementAndGet();
        closed.increment();
    }

    private Counter permits(String state, String description) {
        return Counter.builder("sluice.lease.permits").description(description).tags(tags).tag("state", state)
            .register(registry);
    }
}
