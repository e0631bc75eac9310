package dev.sluice.cli.report;

import java.util.List;

/**
 * One server's seconds during a load run, as the server saw them: what its leases allowed and how fast it answered.
 *
 * @param server  the server's address, as the responses name it
 * @param seconds one entry per second of the run, in order
 */
public record ServerTimeline(String server, List<Second> seconds) {

    public ServerTimeline {
        seconds = List.copyOf(seconds);
    }

    /**
     * @param leased    requests the leases sent during this second allowed, to all clients together
     * @param accepted  requests the service took during this second
     * @param p99Micros the p99 latency of the responses it sent during this second, -1 without any
     */
    public record Second(long leased, long accepted, long p99Micros) {
    }
}
