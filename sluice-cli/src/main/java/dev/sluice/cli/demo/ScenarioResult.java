package dev.sluice.cli.demo;

import dev.sluice.cli.load.LoadSummary;
import dev.sluice.cli.report.ServerTimeline;
import java.util.List;

/**
 * What one demo scenario measured.
 *
 * @param scenario the scenario
 * @param summary  what the load generator measured through the proxy
 * @param servers  what each server saw, second by second, in the order of their addresses
 */
public record ScenarioResult(Scenario scenario, LoadSummary summary, List<ServerTimeline> servers) {

    public ScenarioResult {
        servers = List.copyOf(servers);
    }
}
