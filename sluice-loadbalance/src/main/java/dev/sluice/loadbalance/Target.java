package dev.sluice.loadbalance;

import dev.sluice.core.transport.ClientTransport;

/**
 * One server a balancer may send to.
 *
 * @param key       identifies the target across updates (for example {@code host:port})
 * @param transport how to connect to it
 */
public record Target(String key, ClientTransport transport) {

    public Target {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("target key must not be empty");
        }
        if (transport == null) {
            throw new IllegalArgumentException("target " + key + " has no transport");
        }
    }
}
