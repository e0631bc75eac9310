package dev.sluice.cli.demo;

import dev.sluice.cli.address.Address;
import dev.sluice.cli.load.LoadGenerator;
import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.load.Ramp;
import dev.sluice.cli.load.SecondStats;
import dev.sluice.cli.proxy.ProxyCommand;
import dev.sluice.cli.report.ServerTimeline;
import dev.sluice.cli.server.ServerCommand;
import dev.sluice.core.CloseableServer;
import dev.sluice.core.Connection;
import dev.sluice.core.RSocketConnector;
import dev.sluice.transport.netty.TcpClientTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs one demo scenario over TCP on loopback: three servers, a least-loaded proxy in front, and an open-loop
 * client at a constant rate through it; while it runs, samples each server once a second (its leases and its own
 * latency) and, in the slowdown scenario, slows the last server down and back.
 */
final class ScenarioRunner {

    private static final int SERVERS = 3;
    private static final double SLOWER = 2;

    private final int rps;
    private final Duration target;

    ScenarioRunner(int rps, Duration target) {
        this.rps = rps;
        this.target = target;
    }

    ScenarioResult run(Scenario scenario, Duration sendFor, Consumer<SecondStats> progress)
        throws InterruptedException {
        List<ServerCommand> commands = new ArrayList<>();
        List<CloseableServer> servers = new ArrayList<>();
        CloseableServer proxy = null;
        Connection client = null;
        try {
            List<Address> addresses = new ArrayList<>();
            for (int i = 0; i < SERVERS; i++) {
                ServerCommand c = scenario.adaptive() ? ServerCommand.adaptive("127.0.0.1", 0,
                    scenario.noTarget() ? null : target)
                    : ServerCommand.of("127.0.0.1", 0, scenario.leaseAllowed(), Duration.ofSeconds(1));
                CloseableServer s = c.start();
                commands.add(c);
                servers.add(s);
                addresses.add(Address.tcp("127.0.0.1", s.port()));
            }
            if (scenario.slowServer()) {
                commands.get(SERVERS - 1).service().slowDown(SLOWER);
            }
            ProxyCommand p = ProxyCommand.of(Address.tcp("127.0.0.1", 0), addresses);
            proxy = p.start();
            for (int i = 0; i < 1000 && p.balancer().connectedTargets().size() < SERVERS; i++) {
                Thread.sleep(5);
            }
            if (p.balancer().connectedTargets().size() < SERVERS) {
                throw new IllegalStateException("the proxy could not connect to all 3 servers: connected to "
                    + p.balancer().connectedTargets());
            }
            client = RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", proxy.port()))
                .block(Duration.ofSeconds(10));
            Sampler sampler = new Sampler(commands, addresses);
            // The slowdown starts once the leases have settled, half of --duration in, lasts half of it, and the
            // run goes on for a half after it ends (10 s of the default 20 s, then 10 s more), so that the
            // reaction to it is not mixed up with the start's and the recovery shows.
            long seconds = Math.max(1, sendFor.toSeconds());
            Duration runFor = scenario.slowdown() ? sendFor.plus(sendFor.dividedBy(2)) : sendFor;
            LoadSummary summary = LoadGenerator.create(client).ramp(Ramp.constant(rps, runFor))
                .drainTimeout(Duration.ofSeconds(10))
                .onSecond(second -> {
                    sampler.sample();
                    if (scenario.slowdown()) {
                        long next = second.second() + 1;
                        if (next == seconds / 2) {
                            commands.get(SERVERS - 1).service().slowDown(SLOWER);
                        } else if (next == seconds) {
                            commands.get(SERVERS - 1).service().slowDown(1);
                        }
                    }
                    progress.accept(second);
                })
                .run();
            return new ScenarioResult(scenario, summary, sampler.timelines());
        } finally {
            if (client != null) {
                client.dispose();
            }
            if (proxy != null) {
                proxy.dispose();
            }
            servers.forEach(CloseableServer::dispose);
        }
    }

    /** Each server's leases, acceptances and latency since the previous sample. */
    private static final class Sampler {
        private final List<ServerCommand> servers;
        private final List<Address> addresses;
        private final long[] leased;
        private final long[] accepted;
        private final List<List<ServerTimeline.Second>> seconds = new ArrayList<>();

        Sampler(List<ServerCommand> servers, List<Address> addresses) {
            this.servers = servers;
            this.addresses = addresses;
            this.leased = new long[servers.size()];
            this.accepted = new long[servers.size()];
            for (int i = 0; i < servers.size(); i++) {
                leased[i] = servers.get(i).stats().leased();
                accepted[i] = servers.get(i).stats().accepted();
                servers.get(i).stats().requestResponseP99Micros();
                seconds.add(new ArrayList<>());
            }
        }

        void sample() {
            for (int i = 0; i < servers.size(); i++) {
                var stats = servers.get(i).stats();
                long l = stats.leased();
                long a = stats.accepted();
                seconds.get(i).add(new ServerTimeline.Second(l - leased[i], a - accepted[i],
                    stats.requestResponseP99Micros()));
                leased[i] = l;
                accepted[i] = a;
            }
        }

        List<ServerTimeline> timelines() {
            List<ServerTimeline> out = new ArrayList<>();
            for (int i = 0; i < servers.size(); i++) {
                out.add(new ServerTimeline(addresses.get(i).hostPort(), seconds.get(i)));
            }
            return out;
        }
    }
}
