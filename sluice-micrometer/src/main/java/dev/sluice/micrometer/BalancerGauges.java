package dev.sluice.micrometer;

import dev.sluice.loadbalance.LeastLoadedBalancer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;

/**
 * A balancer's targets as gauges, refreshed periodically: the set of targets changes (discovery, removal), so the
 * per-target availability is a {@link MultiGauge} whose rows are replaced at each refresh.
 */
final class BalancerGauges {

    private final LeastLoadedBalancer balancer;
    private final MultiGauge availability;
    private final AtomicInteger known = new AtomicInteger();
    private final AtomicInteger connected = new AtomicInteger();

    BalancerGauges(LeastLoadedBalancer balancer, MeterRegistry registry, Tags tags) {
        this.balancer = balancer;
        this.availability = MultiGauge.builder("sluice.balancer.target.availability")
            .description("what is left of each target's lease (1 without leases), 0 when not connected")
            .tags(tags)
            .register(registry);
        Gauge.builder("sluice.balancer.targets", known, AtomicInteger::get)
            .description("targets of the balancer, known and connected").tags(tags).tag("state", "known")
            .register(registry);
        Gauge.builder("sluice.balancer.targets", connected, AtomicInteger::get)
            .description("targets of the balancer, known and connected").tags(tags).tag("state", "connected")
            .register(registry);
    }

    Disposable start(Duration refresh) {
        refresh();
        return Schedulers.parallel().schedulePeriodically(this::refresh, refresh.toNanos(), refresh.toNanos(),
            TimeUnit.NANOSECONDS);
    }

    private void refresh() {
        Map<String, Double> now = balancer.availabilityByTarget();
        List<MultiGauge.Row<?>> rows = new ArrayList<>(now.size());
        for (Map.Entry<String, Double> e : now.entrySet()) {
            rows.add(MultiGauge.Row.of(Tags.of("target", e.getKey()), e.getValue()));
        }
        availability.register(rows, true);
        known.set(now.size());
        connected.set(balancer.connectedTargets().size());
    }
}
