package dev.sluice.cli.proxy;

import dev.sluice.cli.address.Address;
import dev.sluice.core.transport.ClientTransport;
import dev.sluice.loadbalance.Target;
import dev.sluice.transport.netty.TcpClientTransport;
import io.netty.util.NetUtil;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * The proxy's {@code --servers} as a publisher of target lists for the balancer: each fixed server, plus
 * every address of each {@code dns:NAME:PORT} entry, looked up again every refresh period. A list is emitted when
 * the set of targets changes: first the fixed servers (when there are any), then after each lookup whose answer
 * differs from the last one.
 *
 * <ul>
 *   <li>A name that does not resolve (unknown, no answer, no address) keeps its last set: a DNS outage never empties
 *       the pool, and servers that are really gone show as unreachable in the balancer's own log. One line per
 *       outage, not per attempt; one line when it resolves again. At startup it simply has no target yet.</li>
 *   <li>One address family per name: IPv4 when the name has any IPv4 address, else IPv6, so that a dual-stack
 *       server is one target (one connection, one lease), not two.</li>
 *   <li>Each target added or removed is logged: {@code target 10.0.0.7:7001 added (dns pool.svc)},
 *       {@code target 10.0.0.5:7001 removed: draining}.</li>
 * </ul>
 *
 * <p>Each subscription has state of its own; lookups of one name never overlap (a period that elapses during a
 * slow lookup is skipped), and lists are emitted one at a time.
 */
final class ServerDiscovery {

    private static final Logger log = LoggerFactory.getLogger("sluice.proxy");

    private final List<ServerAddress> servers;
    private final Duration refresh;
    private final Resolver resolver;
    private final Scheduler scheduler;
    private final Function<Address, ClientTransport> transports;

    /** Plaintext TCP to every server: {@code host:port} and {@code dns:} entries only. */
    ServerDiscovery(List<ServerAddress> servers, Duration refresh, Resolver resolver, Scheduler scheduler) {
        this(servers, refresh, resolver, scheduler, a -> TcpClientTransport.create(a.host(), a.port()));
    }

    /**
     * @param refresh    how often each name is looked up again, {@code > 0}
     * @param resolver   looks names up; not used without {@code dns:} entries
     * @param scheduler  times the lookups
     * @param transports the transport to each fixed server
     */
    ServerDiscovery(List<ServerAddress> servers, Duration refresh, Resolver resolver, Scheduler scheduler,
        Function<Address, ClientTransport> transports) {
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("refresh must be > 0, got " + refresh);
        }
        this.servers = List.copyOf(servers);
        this.refresh = refresh;
        this.resolver = resolver;
        this.scheduler = scheduler;
        this.transports = transports;
    }

    /** The target lists; cancelling stops the lookups. */
    Flux<List<Target>> targets() {
        return Flux.defer(() -> {
            Union union = new Union();
            List<Flux<Resolved>> watches = new ArrayList<>();
            for (ServerAddress s : servers) {
                if (s.dns()) {
                    watches.add(watch(s));
                }
            }
            List<Target> fixed = union.current();
            Flux<List<Target>> changes = Flux.merge(watches).handle((resolved, sink) -> {
                List<Target> next = union.apply(resolved);
                if (next != null) {
                    sink.next(next);
                }
            });
            return fixed.isEmpty() ? changes : changes.startWith(fixed);
        });
    }

    /** The answers for one name: one per lookup that succeeded with a set different from the previous one. */
    private Flux<Resolved> watch(ServerAddress entry) {
        return Flux.defer(() -> {
            Outage outage = new Outage();
            return Flux.interval(Duration.ZERO, refresh, scheduler)
                .onBackpressureDrop() // a tick during a slow lookup is skipped, never queued
                .concatMap(tick -> lookup(entry, outage), 0)
                .distinctUntilChanged(Resolved::keys);
        });
    }

    private Mono<Resolved> lookup(ServerAddress entry, Outage outage) {
        return Mono.defer(() -> resolver.resolveAll(entry.host()))
            .flatMap(addresses -> {
                Resolved r = resolved(entry, addresses);
                return r.targets().isEmpty() ? Mono.error(new UnknownHostException("no address")) : Mono.just(r);
            })
            .doOnNext(r -> {
                if (outage.failing) {
                    outage.failing = false;
                    log.info("dns {} resolves again: {} address(es)", entry.host(), r.targets().size());
                }
                outage.lastCount = r.targets().size();
            })
            .onErrorResume(e -> {
                if (!outage.failing) {
                    outage.failing = true;
                    String why = e.getMessage() != null ? e.getMessage() : e.toString();
                    if (outage.lastCount < 0) {
                        log.warn("dns {}: cannot resolve ({}); no target from it yet, retrying every {}",
                            entry.host(), why, human(refresh));
                    } else {
                        log.warn("dns {}: cannot resolve ({}); keeping its last {} target(s), retrying every {}",
                            entry.host(), why, outage.lastCount, human(refresh));
                    }
                }
                return Mono.empty();
            });
    }

    /** The targets of {@code addresses} on the entry's port, one family, sorted by key: DNS rotates its answers. */
    private static Resolved resolved(ServerAddress entry, List<InetAddress> addresses) {
        boolean anyIpv4 = addresses.stream().anyMatch(a -> a instanceof Inet4Address);
        TreeMap<String, Target> byKey = new TreeMap<>();
        for (InetAddress a : addresses) {
            if (!anyIpv4 || a instanceof Inet4Address) {
                // The short form (RFC 5952) for IPv6: [fd00::7]:7001, not [fd00:0:0:0:0:0:0:7]:7001.
                String key = Address.tcp(NetUtil.toAddressString(a), entry.port()).hostPort();
                byKey.computeIfAbsent(key, k -> new Target(k,
                    TcpClientTransport.create(new InetSocketAddress(a, entry.port()))));
            }
        }
        return new Resolved(entry, List.copyOf(byKey.values()), List.copyOf(byKey.keySet()));
    }

    /** The target of a fixed entry; the proxy's hosts are resolved when connecting. */
    private Target fixed(ServerAddress s) {
        return new Target(s.toString(), transports.apply(s.address()));
    }

    private static String human(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /** One successful lookup. */
    private record Resolved(ServerAddress entry, List<Target> targets, List<String> keys) { }

    /** Whether a name is failing now, and how many targets it had: touched by its own serial chain only. */
    private static final class Outage {
        boolean failing;
        int lastCount = -1;
    }

    /** The set made of every entry's latest targets, in --servers order, and the last set emitted. */
    private final class Union {
        private final Map<ServerAddress, List<Target>> bySource = new LinkedHashMap<>();
        private Map<String, ServerAddress> current = new LinkedHashMap<>();
        private List<Target> currentTargets;

        Union() {
            for (ServerAddress s : servers) {
                bySource.put(s, s.dns() ? List.of() : List.of(fixed(s)));
            }
            currentTargets = merged(current);
        }

        List<Target> current() {
            return currentTargets;
        }

        /** Takes a name's new answer; the new set if it differs from the last one, else null. */
        List<Target> apply(Resolved r) {
            bySource.put(r.entry(), r.targets());
            Map<String, ServerAddress> sources = new LinkedHashMap<>();
            List<Target> next = merged(sources);
            if (sources.keySet().equals(current.keySet())) {
                return null;
            }
            for (Map.Entry<String, ServerAddress> e : sources.entrySet()) {
                if (!current.containsKey(e.getKey())) {
                    log.info("target {} added (dns {})", e.getKey(), e.getValue().host());
                }
            }
            for (String key : current.keySet()) {
                if (!sources.containsKey(key)) {
                    log.info("target {} removed: draining", key);
                }
            }
            current = sources;
            currentTargets = next;
            return next;
        }

        /** Every entry's targets, the first entry to name a key keeping it; fills {@code sources}. */
        private List<Target> merged(Map<String, ServerAddress> sources) {
            List<Target> out = new ArrayList<>();
            for (Map.Entry<ServerAddress, List<Target>> e : bySource.entrySet()) {
                for (Target t : e.getValue()) {
                    if (sources.putIfAbsent(t.key(), e.getKey()) == null) {
                        out.add(t);
                    }
                }
            }
            return out;
        }
    }
}
