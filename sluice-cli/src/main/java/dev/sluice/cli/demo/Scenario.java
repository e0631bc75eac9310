package dev.sluice.cli.demo;

import java.util.Locale;

/**
 * One demo scenario, as {@code --leases} names it: a fixed lease per server ({@code 100}), or adaptive leases
 * ({@code adaptive}), optionally with one server twice as slow all along ({@code adaptive-slow-server}) or for the
 * middle of the run ({@code adaptive-slowdown}), or with no target latency given ({@code adaptive-no-target}).
 *
 * @param leaseAllowed requests each server leases per second; null for adaptive leases
 * @param slowServer   the last server's delays are doubled for the whole run
 * @param slowdown     the last server's delays are doubled from half of {@code --duration} to all of it, and the
 *                     run lasts half again as long, so that the leases have settled before and half a duration
 *                     follows the slowdown
 * @param noTarget     adaptive leases without {@code --target-latency}: the servers estimate their own
 */
public record Scenario(Integer leaseAllowed, boolean slowServer, boolean slowdown, boolean noTarget) {

    /** What {@code --leases} accepts besides whole numbers. */
    static final String ADAPTIVE_TOKENS = "adaptive, adaptive-slow-server, adaptive-slowdown, adaptive-no-target";

    /** Reads one {@code --leases} entry; the message of the exception says what is accepted. */
    static Scenario parse(String token) {
        String t = token.trim().toLowerCase(Locale.ROOT);
        switch (t) {
            case "adaptive":
                return new Scenario(null, false, false, false);
            case "adaptive-slow-server":
                return new Scenario(null, true, false, false);
            case "adaptive-slowdown":
                return new Scenario(null, false, true, false);
            case "adaptive-no-target":
                return new Scenario(null, false, false, true);
            default:
                try {
                    int lease = Integer.parseInt(t);
                    if (lease < 0) {
                        throw new IllegalArgumentException("--leases must be >= 0, got " + lease);
                    }
                    return new Scenario(lease, false, false, false);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--leases takes whole numbers and " + ADAPTIVE_TOKENS
                        + ", got '" + token + "'");
                }
        }
    }

    boolean adaptive() {
        return leaseAllowed == null;
    }

    /** The scenario's name in tables and the report; adaptive ones start with {@code adaptive}. */
    public String name() {
        if (!adaptive()) {
            return "lease " + leaseAllowed + "/s";
        }
        return slowServer ? "adaptive, one server 2x slower" : slowdown ? "adaptive, one server 2x slower mid-run"
            : noTarget ? "adaptive, no target latency" : "adaptive";
    }

    /** The first column of the result table: the lease, or the name. */
    String tableLabel() {
        return adaptive() ? name() : Integer.toString(leaseAllowed);
    }
}
