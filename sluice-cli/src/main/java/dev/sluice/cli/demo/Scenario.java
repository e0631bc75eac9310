package dev.sluice.cli.demo;

import dev.sluice.cli.load.LoadSummary;

/**
 * One demo scenario and its outcome.
 *
 * @param leaseAllowed requests each server leases per second
 * @param summary      what the load generator measured through the proxy
 */
public record Scenario(int leaseAllowed, LoadSummary summary) {

    /** The scenario's name in tables and the report. */
    public String name() {
        return "lease " + leaseAllowed + "/s";
    }
}
